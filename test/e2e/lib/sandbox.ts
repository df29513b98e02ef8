import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import type { FaultPlan, SendWebhookOptions, SendWebhookResult } from '../../sandbox';
import { expectOk, requestJson } from './http';
import { repoRoot } from './paths';
import { type Started, startGuarded, stopStarted } from './processes';

/** What the sandbox CLI prints with --json (test/sandbox/README.md). */
export interface SandboxInfo {
	url: string;
	origin: string;
	keys: { full: string; noSupport: string; readOnly: string; otherOrg: string };
	adminToken: string;
	savedCards: { enabled: string; notEnabled: string };
	hubs: { active: string[]; inactive: string[] };
	/** The other origin redirect faults point at (test/sandbox/README.md, Redirect target). */
	redirectTargetOrigin: string;
}

/** The parts of an organization's state (GET /__admin/state) the specs read. */
export interface OrgState {
	quotes: Array<Record<string, unknown>>;
	bookings: Array<Record<string, unknown>>;
	payments: Array<Record<string, unknown>>;
	quoteRequests: Array<Record<string, unknown>>;
	haulageQuotations: Array<Record<string, unknown>>;
	supportCases: Array<Record<string, unknown>>;
}

export interface SandboxProcess {
	info: SandboxInfo;
	process: Started;
	stop(): Promise<void>;
}

export interface SandboxOptions {
	port?: number;
	adminToken?: string;
	keys?: Partial<SandboxInfo['keys']>;
	/** The sandbox's stderr (its human-readable block and errors) goes here. */
	logFile: string;
}

/**
 * Starts the sandbox Partner API as its own process (Node 20 with ts-node, like `npm run
 * sandbox`), waits for its JSON line and returns it.
 */
export async function startSandbox(options: SandboxOptions): Promise<SandboxProcess> {
	const args = ['-r', 'ts-node/register/transpile-only', 'test/sandbox/cli.ts', '--json'];
	if (options.port) args.push('--port', String(options.port));
	if (options.adminToken) args.push('--admin-token', options.adminToken);
	const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
	delete env.NODE_OPTIONS;
	if (options.keys) env.SANDBOX_KEYS_JSON = JSON.stringify(options.keys);
	else delete env.SANDBOX_KEYS_JSON;

	const started = startGuarded('sandbox', process.execPath, args, {
		cwd: repoRoot,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const log = createWriteStream(options.logFile, { flags: 'a' });
	started.child.stderr?.pipe(log);
	try {
		const info = await readInfo(started);
		return { info, process: started, stop: () => stopStarted(started) };
	} catch (error) {
		await stopStarted(started);
		throw error;
	}
}

function readInfo(started: Started): Promise<SandboxInfo> {
	return new Promise((resolveInfo, reject) => {
		const lines = createInterface({ input: started.child.stdout! });
		const timer = setTimeout(
			() => reject(new Error('The sandbox printed no JSON in 30 s')),
			30_000,
		);
		lines.on('line', (line) => {
			if (!line.startsWith('{')) return;
			clearTimeout(timer);
			lines.close();
			// Keep draining stdout so the sandbox never blocks on a full pipe.
			started.child.stdout?.resume();
			resolveInfo(JSON.parse(line) as SandboxInfo);
		});
		void started.exited.then((code) => {
			clearTimeout(timer);
			reject(new Error(`The sandbox exited with code ${code} before it was ready`));
		});
	});
}

/** The sandbox's operator and test controls over HTTP (`/__admin/…`). */
export class SandboxAdmin {
	constructor(private readonly info: Pick<SandboxInfo, 'origin' | 'adminToken'>) {}

	private url(path: string) {
		return `${this.info.origin}/__admin${path}`;
	}

	private headers() {
		return { 'x-sandbox-admin-token': this.info.adminToken };
	}

	async post<T = unknown>(path: string, body: unknown = {}): Promise<T> {
		const response = await expectOk<T>(`sandbox admin POST ${path}`, this.url(path), {
			method: 'POST',
			headers: this.headers(),
			body,
		});
		return response.body;
	}

	async get<T = unknown>(path: string): Promise<T> {
		return (
			await expectOk<T>(`sandbox admin GET ${path}`, this.url(path), { headers: this.headers() })
		).body;
	}

	/** What reached the redirect target, the other origin redirect faults point at. */
	async redirectTargetLog(): Promise<unknown[]> {
		return await this.get<unknown[]>('/redirect-target/log');
	}

	async clearRedirectTargetLog(): Promise<void> {
		await expectOk('sandbox admin DELETE /redirect-target/log', this.url('/redirect-target/log'), {
			method: 'DELETE',
			headers: this.headers(),
		});
	}

	/**
	 * Replaces the whole fault plan; `{}` clears it. Paths are strings: a RegExp would not survive
	 * JSON. A plan hits the next matching partner requests whoever sends them (dropAfterCommit:
	 * any successful POST), so set it right before the run it is meant for and clear it after.
	 */
	async setFaults(plan: FaultPlan): Promise<void> {
		await this.post('/faults', plan);
	}

	/**
	 * Replay-refusals mode (a sandbox choice): when on, a handler's 4xx other than 409 and 429 is
	 * stored under its Idempotency-Key and replayed, as Stripe does. Off as this suite starts
	 * the sandbox; `/reset` restores that.
	 */
	async setReplayRefusals(enabled: boolean): Promise<void> {
		await this.post('/replay-refusals', { enabled });
	}

	/** A network's round trip: each partner request, and its answer, held `ms` (README, Latency). */
	async setLatency(ms: number): Promise<void> {
		await this.post('/latency', { ms });
	}

	/** Repeat-actions mode: a new key books or pays again (test/sandbox/README.md, Idempotency). */
	async setRepeatActions(enabled: boolean): Promise<void> {
		await this.post('/repeat-actions', { enabled });
	}

	/** Records of organization A (the suite's keys), hidden parts included. */
	async stateOfOrgA(): Promise<OrgState> {
		return (await this.get<{ A: OrgState }>('/state')).A;
	}

	/** Sends a signed webhook (or a forged one, by `mode`) and returns the receiver's answer. */
	async sendWebhook(options: SendWebhookOptions): Promise<SendWebhookResult> {
		const response = await requestJson<SendWebhookResult>(this.url('/webhooks/send'), {
			method: 'POST',
			headers: this.headers(),
			body: options,
		});
		if (response.status !== 200) {
			throw new Error(
				`sandbox webhook send: HTTP ${response.status} ${JSON.stringify(response.body)}`,
			);
		}
		return response.body;
	}
}

export function sandboxLogFile(dir: string) {
	return join(dir, 'sandbox.log');
}
