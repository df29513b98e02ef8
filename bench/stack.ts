// The one real n8n the node benches share (test/e2e/runtime: n8n 2.41.1 on Node 24, this package
// packed and installed as from the UI) beside the sandbox, and the one way they run a workflow:
// POST the items to its webhook, wait for the answer, read the stored execution back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { waitFor } from '../test/e2e/lib/http';
import type { N8nClient } from '../test/e2e/lib/n8nApi';
import { startN8n, type N8nServer } from '../test/e2e/lib/n8nProcess';
import { installCleanupHooks } from '../test/e2e/lib/processes';
import { SandboxAdmin, type SandboxInfo } from '../test/e2e/lib/sandbox';
import { type Stack, startStack } from '../test/e2e/lib/stack';
import { processGroupCpuMs } from './cpu';
import {
	benchCredentials,
	BENCH_EXTENSIONS,
	benchWorkflows,
	NODE_UNDER_TEST,
	type WorkflowName,
	WORKFLOWS,
} from './workflows';

export interface WorkflowRun {
	/** HTTP status of the webhook's answer (200 when the workflow succeeded). */
	status: number;
	/**
	 * From POSTing the items to the webhook's answer: the whole execution as a caller sees it (of
	 * runs posted at once: to the last answer).
	 */
	wallMs: number;
	/** n8n's own timing of the node under test (runData[node][0].executionTime). */
	nodeMs: number;
	/** The stored execution's stoppedAt − startedAt. */
	executionMs: number;
	/** CPU n8n's processes (server and task runner) spent from the POST to the (last) answer. */
	n8nCpuMs: number;
	/** Items the node under test put out. */
	output: Array<Record<string, unknown>>;
	/** The execution's error message, if it failed. */
	error?: string;
}

export interface BenchStack {
	n8nUrl: string;
	sandbox: SandboxInfo;
	admin: SandboxAdmin;
	run(name: WorkflowName, items: unknown[]): Promise<WorkflowRun>;
	/** Runs the workflow once per item list, all posted at the same moment. */
	runAtOnce(name: WorkflowName, itemLists: unknown[][]): Promise<WorkflowRun[]>;
	/** POSTs a body to a workflow's webhook: its status and the wall time to its answer. */
	post(
		name: WorkflowName,
		body: unknown,
	): Promise<{ status: number; wallMs: number; body: string }>;
	/**
	 * Stops n8n (every process of it) and starts it again on the same database: nothing the node
	 * learned survives.
	 */
	restartN8n(): Promise<void>;
}

interface NodeRunTimes {
	executionTime?: number;
	data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
	error?: { message: string; description?: string };
}

/** The n8n owner account every bench instance is set up with. */
export const BENCH_OWNER = {
	email: 'bench@partner-logistics.example',
	firstName: 'Bench',
	lastName: 'Owner',
	password: 'Bench-Passw0rd!',
};

const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`);

export interface BenchStackOptions {
	/** Environment of every n8n process (queue mode's). */
	instanceEnv?: Record<string, string>;
	/** More n8n processes of the instance, started once the main is ready (queue mode's workers). */
	others?: (instance: Stack['instance']) => Promise<N8nServer[]>;
	/** Where the work folder goes; a fresh temp folder by default. */
	workDir?: string;
}

/**
 * The sandbox and a real n8n with this package installed as from the UI, every bench workflow
 * active, ready when their webhooks are registered.
 */
export async function startBenchStack(
	options: BenchStackOptions = {},
): Promise<BenchStack & { stop(): Promise<void> }> {
	installCleanupHooks();
	const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'partner-logistics-bench-'));
	const stack = await startStack({
		workDir,
		owner: BENCH_OWNER,
		instanceEnv: { N8N_CUSTOM_EXTENSIONS: BENCH_EXTENSIONS, ...options.instanceEnv },
		fixtures: (sandbox) => {
			const workflows = benchWorkflows(sandbox);
			return {
				credentials: benchCredentials(sandbox),
				workflows,
				activate: workflows.map((workflow) => workflow.id),
			};
		},
		log: progress,
	}).catch((error: unknown) => {
		rmSync(workDir, { recursive: true, force: true });
		throw error;
	});
	const n8nUrl = stack.n8n.baseUrl;
	const webhooksRegistered = async () => {
		const active = benchWorkflows(stack.sandbox.info).map((workflow) => workflow.id);
		for (const workflow of Object.values(WORKFLOWS).filter((w) => active.includes(w.id))) {
			await waitFor(`the webhook ${workflow.path} to register`, async () =>
				(await isRegistered(`${n8nUrl}/webhook/${workflow.path}`)) ? true : undefined,
			);
		}
	};
	let n8n: N8nServer = stack.n8n;
	let others: N8nServer[] = [];
	try {
		others = (await options.others?.(stack.instance)) ?? [];
		await webhooksRegistered();
	} catch (error) {
		await Promise.all(others.map((other) => other.stop()));
		await stack.stop();
		throw error;
	}
	progress(`n8n ready at ${n8nUrl}`);
	const run = { client: stack.client, n8nUrl, pid: () => n8n.process.pid };
	return {
		n8nUrl,
		sandbox: stack.sandbox.info,
		admin: new SandboxAdmin(stack.sandbox.info),
		run: async (name, items) => (await runWorkflows(run, name, [items]))[0],
		runAtOnce: async (name, itemLists) => await runWorkflows(run, name, itemLists),
		post: async (name, body) => await postToWebhook(n8nUrl, name, body),
		restartN8n: async () => {
			await Promise.all([...others, n8n].map((process) => process.stop()));
			n8n = await startN8n(stack.instance);
			others = (await options.others?.(stack.instance)) ?? [];
			await webhooksRegistered();
		},
		stop: async () => {
			await Promise.all([...others, n8n].map((process) => process.stop()));
			await stack.stop();
			rmSync(workDir, { recursive: true, force: true });
		},
	};
}

/** n8n answers a GET to a registered POST-only webhook with a 404 naming the POST method. */
async function isRegistered(url: string): Promise<boolean> {
	const response = await fetch(url);
	return /POST/.test(await response.text());
}

interface ExecutionSummary {
	id: string;
	stoppedAt: string | null;
}

async function executionsOf(client: N8nClient, workflowId: string, limit: number) {
	const query = new URLSearchParams({ workflowId, limit: String(limit) });
	const page = await client.publicApi<{ data: ExecutionSummary[] }>('GET', `/executions?${query}`);
	if (page.status !== 200) throw new Error(`list executions: HTTP ${page.status}`);
	return page.body.data;
}

async function postToWebhook(n8nUrl: string, name: WorkflowName, body: unknown) {
	const started = process.hrtime.bigint();
	const response = await fetch(`${n8nUrl}/webhook/${WORKFLOWS[name].path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	return {
		status: response.status,
		wallMs: Number(process.hrtime.bigint() - started) / 1e6,
		body: text,
	};
}

/**
 * Posts each item list to the workflow's webhook at the same moment, waits for every answer, then
 * reads the stored executions back (the newest ones, once all of them have ended).
 */
async function runWorkflows(
	{ client, n8nUrl, pid }: { client: N8nClient; n8nUrl: string; pid: () => number },
	name: WorkflowName,
	itemLists: unknown[][],
): Promise<WorkflowRun[]> {
	const workflow = WORKFLOWS[name];
	const count = itemLists.length;
	const before = new Set((await executionsOf(client, workflow.id, count)).map((e) => e.id));
	const cpuBefore = processGroupCpuMs(pid());
	const answers = await Promise.all(
		itemLists.map(
			async (items) => await postToWebhook(n8nUrl, name, { [workflow.itemsField]: items }),
		),
	);
	const n8nCpuMs = processGroupCpuMs(pid()) - cpuBefore;

	// The executions are stored as they end, just around the webhook's answers.
	const ids = await waitFor(
		`the ${count} execution(s) of ${workflow.id}`,
		async () => {
			const latest = (await executionsOf(client, workflow.id, count)).filter(
				(execution) => !before.has(execution.id),
			);
			return latest.length === count && latest.every((e) => e.stoppedAt)
				? latest.map((e) => e.id)
				: undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 100 },
	);
	const executions = await Promise.all(ids.map(async (id) => await client.execution(id)));
	// Oldest first: the order the lists were posted in is not kept, the runs are alike.
	executions.sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
	return executions.map((execution, index) => {
		const nodeRun = execution.data?.resultData.runData[NODE_UNDER_TEST]?.[0] as
			| NodeRunTimes
			| undefined;
		const error = execution.data?.resultData.error ?? nodeRun?.error;
		const answer = answers[index];
		return {
			status: answer.status,
			wallMs: Math.max(...answers.map((a) => a.wallMs)),
			nodeMs: nodeRun?.executionTime ?? NaN,
			executionMs: Date.parse(execution.stoppedAt ?? '') - Date.parse(execution.startedAt),
			n8nCpuMs,
			output: (nodeRun?.data?.main[0] ?? []).map((item) => item.json),
			...(error
				? { error: error.description ? `${error.message} (${error.description})` : error.message }
				: {}),
		};
	});
}

let shared: Promise<BenchStack & { stop(): Promise<void> }> | undefined;
let keepOpen = false;

/** Called by bench/index.ts: one stack serves every bench of the run; it stops it at the end. */
export function shareStackBetweenBenches(): void {
	keepOpen = true;
}

/** Runs `use` on the shared stack, starting it on first use; a bench run alone stops it after. */
export async function withBenchStack<T>(use: (stack: BenchStack) => Promise<T>): Promise<T> {
	shared ??= startBenchStack();
	try {
		return await use(await shared);
	} finally {
		if (!keepOpen) await stopBenchStack();
	}
}

export async function stopBenchStack(): Promise<void> {
	const running = shared;
	shared = undefined;
	if (running) await (await running.catch(() => undefined))?.stop();
}
