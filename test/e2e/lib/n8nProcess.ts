import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';

import { freePort } from './ports';
import { requestJson, waitFor } from './http';
import { n8nBin, node24, repoRoot } from './paths';
import { type Started, startGuarded, stopStarted } from './processes';
import { type N8nInstance, n8nBaseUrl, n8nEnv } from './n8nEnv';

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
}

/**
 * Runs one n8n CLI command (import, publish, execute) under Node 24. It gets a broker port of its
 * own: the server's would collide when a command runs beside it.
 */
export async function n8nCli(
	instance: N8nInstance,
	args: string[],
	env: Record<string, string> = {},
	timeoutMs = 120_000,
): Promise<CliResult> {
	const brokerPort = await freePort();
	const started = startGuarded(`n8n ${args[0]}`, node24, [n8nBin, ...args], {
		cwd: repoRoot,
		env: n8nEnv(instance, {
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			// The CLI's own log lines go to its stdout only: the server's log file stays the server's.
			N8N_LOG_OUTPUT: 'console',
			...env,
		}),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	started.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	started.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const timer = setTimeout(() => void stopStarted(started), timeoutMs);
	const code = await started.exited;
	clearTimeout(timer);
	await stopStarted(started);
	return { code, stdout, stderr };
}

export async function n8nCliOk(instance: N8nInstance, args: string[]): Promise<CliResult> {
	const result = await n8nCli(instance, args);
	if (result.code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} exited with ${result.code}\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result;
}

export interface N8nServer {
	process: Started;
	baseUrl: string;
	stop(): Promise<void>;
}

/** `n8n start`, its output appended to `<logDir>/n8n-stdout.log`, then waits for readiness. */
export async function startN8n(
	instance: N8nInstance,
	env: Record<string, string> = {},
	readyTimeoutMs = 120_000,
): Promise<N8nServer> {
	return startN8nProcess(instance, { command: 'start', name: 'n8n', env, readyTimeoutMs });
}

export interface N8nProcessOptions {
	/** `start` (main), `worker` or `webhook` (queue mode's other processes). */
	command: 'start' | 'worker' | 'webhook';
	/** Names the process and its stdout log, `<logDir>/<name>-stdout.log`. */
	name: string;
	env?: Record<string, string>;
	/** Where `/healthz/readiness` answers; the instance's port unless set (a worker's health port). */
	healthPort?: number;
	readyTimeoutMs?: number;
}

/** Any n8n process of an instance, started like `startN8n` and ready when its health check says so. */
export async function startN8nProcess(
	instance: N8nInstance,
	{ command, name, env = {}, healthPort, readyTimeoutMs = 120_000 }: N8nProcessOptions,
): Promise<N8nServer> {
	const stdoutLog = join(instance.logDir, `${name}-stdout.log`);
	const out = openSync(stdoutLog, 'a');
	const started = startGuarded(name, node24, [n8nBin, command], {
		cwd: repoRoot,
		env: n8nEnv(instance, env),
		stdio: ['ignore', out, out],
	});
	closeSync(out);
	let exitCode: number | undefined;
	void started.exited.then((code) => (exitCode = code));
	const baseUrl = n8nBaseUrl(instance);
	const healthUrl = `http://127.0.0.1:${healthPort ?? instance.port}/healthz/readiness`;
	const server = { process: started, baseUrl, stop: () => stopStarted(started) };
	try {
		const options = {
			timeoutMs: readyTimeoutMs,
			intervalMs: 250,
			abort: () =>
				exitCode === undefined
					? undefined
					: `${name} exited with code ${exitCode}; see ${stdoutLog}`,
		};
		await waitFor(
			`${name} readiness at ${healthUrl}`,
			async () => {
				const response = await requestJson<{ status?: string }>(healthUrl);
				return response.status === 200 && response.body?.status === 'ok' ? true : undefined;
			},
			options,
		);
		// n8n 1.x reports readiness before the main has mounted its REST API (2.x after).
		if (command === 'start') {
			await waitFor(
				`${name} REST API at ${baseUrl}/rest/settings`,
				async () =>
					(await requestJson(`${baseUrl}/rest/settings`)).status === 200 ? true : undefined,
				options,
			);
		}
	} catch (error) {
		await server.stop();
		throw error;
	}
	return server;
}
