// The sandbox the benches talk to. By default it runs in a child process: in process, its request
// handling would share the bench's event loop and be timed as part of the engine's work.
// BENCH_SANDBOX=inprocess keeps it in process (to see that contention).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { startSandbox, type RequestLogEntry, type SandboxState } from '../test/sandbox';

export interface BenchSandbox {
	url: string;
	/** The `full` key of organization A. */
	apiKey: string;
	where: 'child process' | 'in process';
	reset(): Promise<void>;
	setRateLimit(perSecond: number | null): Promise<void>;
	state(): Promise<SandboxState>;
	requests(): Promise<RequestLogEntry[]>;
	clearLog(): Promise<void>;
	close(): Promise<void>;
}

export async function startBenchSandbox(): Promise<BenchSandbox> {
	return process.env.BENCH_SANDBOX === 'inprocess' ? await inProcess() : await childProcess();
}

async function inProcess(): Promise<BenchSandbox> {
	const sandbox = await startSandbox();
	return {
		url: sandbox.url,
		apiKey: sandbox.keys.full,
		where: 'in process',
		reset: async () => sandbox.admin.reset(),
		setRateLimit: async (perSecond) => sandbox.admin.setRateLimit(perSecond),
		state: async () => sandbox.admin.state(),
		requests: async () => sandbox.requests(),
		clearLog: async () => sandbox.clearLog(),
		close: () => sandbox.close(),
	};
}

interface CliInfo {
	url: string;
	origin: string;
	keys: { full: string };
	adminToken: string;
}

async function childProcess(): Promise<BenchSandbox> {
	const root = join(__dirname, '..');
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', 'test/sandbox/cli.ts', '--json'],
		{ cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	// Its banner (keys, admin token) is noise in a report; kept to explain a failed start.
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = once(child, 'exit');
	// A bench that crashes must not leave the sandbox running.
	const killChild = () => child.kill('SIGTERM');
	process.once('exit', killChild);
	const info = await firstJsonLine(child.stdout).catch((error: Error) => {
		throw new Error(`${error.message}\n${stderr}`);
	});

	const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${info.origin}/__admin${path}`, {
			method,
			headers: { 'x-sandbox-admin-token': info.adminToken, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`sandbox admin ${method} ${path}: ${response.status}`);
		return (await response.json()) as T;
	};
	return {
		url: info.url,
		apiKey: info.keys.full,
		where: 'child process',
		reset: async () => void (await admin('POST', '/reset')),
		setRateLimit: async (perSecond) => void (await admin('POST', '/rate-limit', { perSecond })),
		state: async () => await admin<SandboxState>('GET', '/state'),
		requests: async () => await admin<RequestLogEntry[]>('GET', '/log'),
		clearLog: async () => void (await admin('DELETE', '/log')),
		close: async () => {
			process.removeListener('exit', killChild);
			if (child.exitCode === null) killChild();
			await exited;
		},
	};
}

async function firstJsonLine(stream: NodeJS.ReadableStream): Promise<CliInfo> {
	for await (const line of createInterface({ input: stream })) {
		if (line.startsWith('{')) return JSON.parse(line) as CliInfo;
	}
	throw new Error('the sandbox exited before printing its JSON line');
}
