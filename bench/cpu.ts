// CPU time as a second measure beside wall time: on a machine shared with other work, the CPU a
// side burns moves far less with the load than the seconds it takes.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports utime/stime in clock ticks; 100 per second on every kernel config we run on. */
const TICK_MS = 10;

/** utime + stime (ms) of every live process in process group `pgid` (n8n and its task runner). */
export function processGroupCpuMs(pgid: number): number {
	let ticks = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue; // exited meanwhile
		}
		// Fields after the command name, which sits in parentheses and may hold spaces.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(fields[2]) !== pgid) continue;
		ticks += Number(fields[11]) + Number(fields[12]);
	}
	return ticks * TICK_MS;
}

/** CPU (user + system, ms) this process spent in `fn`. */
export async function ownCpuMs<T>(fn: () => Promise<T>): Promise<{ cpuMs: number; value: T }> {
	const before = process.cpuUsage();
	const value = await fn();
	const used = process.cpuUsage(before);
	return { cpuMs: (used.user + used.system) / 1000, value };
}
