// npm run bench [-- quotes rateLimit signature]: runs the benches one after another (never
// together: they would time each other) and prints each one's markdown section. Exits non-zero
// when a bench's checks fail, e.g. a booking failed under the rate limit.

import { existsSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { BenchFailure } from './report';

interface BenchModule {
	run(): Promise<string>;
}

const BENCHES: Array<[name: string, load: () => Promise<BenchModule>]> = [
	['quotes', async () => await import('./quotes')],
	['rateLimit', async () => await import('./rateLimit')],
	// Slot for bench/signature.ts, written separately: loaded by path only when the file exists,
	// so this file compiles and runs with or without it.
	['signature', async () => (await import(join(__dirname, 'signature'))) as BenchModule],
];

function available(name: string): boolean {
	return name !== 'signature' || existsSync(join(__dirname, 'signature.ts'));
}

function command(): string {
	const args = process.argv.slice(2);
	const env = process.env.BENCH_SANDBOX ? `BENCH_SANDBOX=${process.env.BENCH_SANDBOX} ` : '';
	return `${env}npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
}

function header(): string {
	const cpu = cpus();
	const load = loadavg()
		.map((value) => value.toFixed(2))
		.join(' / ');
	return [
		`- Command: \`${command()}\``,
		`- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
			`${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}`,
		`- Node ${process.version}; ${new Date().toISOString()}`,
		`- Load average at start (1/5/15 min): ${load}`,
		'',
	].join('\n');
}

async function main() {
	const wanted = process.argv.slice(2);
	const unknown = wanted.filter((name) => !BENCHES.some(([known]) => known === name));
	if (unknown.length) throw new Error(`unknown bench: ${unknown.join(', ')}`);
	console.log(header());
	const failed: string[] = [];
	for (const [name, load] of BENCHES) {
		if (wanted.length ? !wanted.includes(name) : !available(name)) continue;
		try {
			console.log(await (await load()).run());
		} catch (error) {
			failed.push(name);
			console.log(
				error instanceof BenchFailure ? error.section : `### ${name}\n\n${String(error)}\n`,
			);
			if (!(error instanceof BenchFailure) && error instanceof Error) console.error(error.stack);
		}
	}
	if (failed.length) {
		console.log(`**Failed: ${failed.join(', ')}**`);
		process.exitCode = 1;
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
