import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// The resident memory of the n8n process that runs the executions, read from Linux's /proc while
// a run goes on: what an answer that inflates without end costs n8n itself.

/**
 * The pid of the process listening on 127.0.0.1:`port`: n8n's main, which runs a regular-mode
 * execution. (The suite starts it under guard.js, so the pid it knows is the guard's.) Found
 * through the listening socket's inode in /proc/net/tcp and the process holding it.
 */
export function listeningPid(port: number): number {
	const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
	const inodes = new Set<string>();
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const line of text.split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			// local_address is ADDR:PORT in hex; st 0A is LISTEN; the inode is the 10th field.
			if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') inodes.add(fields[9]);
		}
	}
	if (!inodes.size) throw new Error(`Nothing listens on port ${port}`);
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let fds: string[] = [];
		try {
			fds = readdirSync(`/proc/${entry}/fd`);
		} catch {
			continue; // Not ours, or gone.
		}
		for (const fd of fds) {
			try {
				const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
				if (inodes.has(target.replace(/^socket:\[(\d+)\]$/, '$1'))) return Number(entry);
			} catch {
				// Closed meanwhile.
			}
		}
	}
	throw new Error(`No process of ours holds the socket listening on port ${port}`);
}

/** A process's command line, its arguments one an element (/proc/<pid>/cmdline). */
export function commandLine(pid: number): string[] {
	return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** VmRSS of a process, in bytes (/proc/<pid>/status gives it in kB). */
export function rssBytes(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
	if (kb === undefined) throw new Error(`No VmRSS in /proc/${pid}/status`);
	return Number(kb) * 1024;
}

export interface RssReport {
	/** Right before the sampling started. */
	before: number;
	peak: number;
	samples: number;
}

/**
 * Samples a process's RSS every `intervalMs` while `during` runs; `before` is read first, the
 * peak over every sample, the last one taken once `during` has ended.
 */
export async function sampleRss<T>(
	pid: number,
	during: () => Promise<T>,
	intervalMs = 100,
): Promise<{ result: T; rss: RssReport }> {
	const before = rssBytes(pid);
	let peak = before;
	let samples = 1;
	const sample = () => {
		peak = Math.max(peak, rssBytes(pid));
		samples++;
	};
	const timer = setInterval(sample, intervalMs);
	try {
		const result = await during();
		sample();
		return { result, rss: { before, peak, samples } };
	} finally {
		clearInterval(timer);
	}
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
