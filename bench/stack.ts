// The one real n8n the node benches share (test/e2e/runtime: n8n 2.41.1 on Node 24, this package
// packed and installed as from the UI) beside the sandbox, and the one way they run a workflow:
// POST the items to its webhook, wait for the answer, read the stored execution back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { waitFor } from '../test/e2e/lib/http';
import type { Execution, N8nClient } from '../test/e2e/lib/n8nApi';
import { installCleanupHooks } from '../test/e2e/lib/processes';
import { SandboxAdmin, type SandboxInfo } from '../test/e2e/lib/sandbox';
import { startStack } from '../test/e2e/lib/stack';
import { processGroupCpuMs } from './cpu';
import {
	benchCredentials,
	benchWorkflows,
	NODE_UNDER_TEST,
	type WorkflowName,
	WORKFLOWS,
} from './workflows';

export interface WorkflowRun {
	/** HTTP status of the webhook's answer (200 when the workflow succeeded). */
	status: number;
	/** From POSTing the items to the webhook's answer: the whole execution as a caller sees it. */
	wallMs: number;
	/** n8n's own timing of the node under test (runData[node][0].executionTime). */
	nodeMs: number;
	/** The stored execution's stoppedAt − startedAt. */
	executionMs: number;
	/** CPU n8n's processes (server and task runner) spent from the POST to the answer. */
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

async function start(): Promise<BenchStack & { stop(): Promise<void> }> {
	installCleanupHooks();
	const workDir = mkdtempSync(join(tmpdir(), 'partner-logistics-bench-'));
	const stack = await startStack({
		workDir,
		owner: BENCH_OWNER,
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
	try {
		const active = benchWorkflows(stack.sandbox.info).map((workflow) => workflow.id);
		for (const workflow of Object.values(WORKFLOWS).filter((w) => active.includes(w.id))) {
			await waitFor(`the webhook ${workflow.path} to register`, async () =>
				(await isRegistered(`${n8nUrl}/webhook/${workflow.path}`)) ? true : undefined,
			);
		}
	} catch (error) {
		await stack.stop();
		throw error;
	}
	progress(`n8n ready at ${n8nUrl}`);
	return {
		n8nUrl,
		sandbox: stack.sandbox.info,
		admin: new SandboxAdmin(stack.sandbox.info),
		run: async (name, items) =>
			await runWorkflow(stack.client, n8nUrl, stack.n8n.process.pid, name, items),
		stop: async () => {
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

async function latestExecutionId(client: N8nClient, workflowId: string) {
	const query = new URLSearchParams({ workflowId, limit: '1' });
	const page = await client.publicApi<{ data: Array<{ id: string; stoppedAt: string | null }> }>(
		'GET',
		`/executions?${query}`,
	);
	if (page.status !== 200) throw new Error(`list executions: HTTP ${page.status}`);
	return page.body.data[0];
}

async function runWorkflow(
	client: N8nClient,
	n8nUrl: string,
	n8nProcessGroup: number,
	name: WorkflowName,
	items: unknown[],
): Promise<WorkflowRun> {
	const workflow = WORKFLOWS[name];
	const before = (await latestExecutionId(client, workflow.id))?.id;
	const body = JSON.stringify({ [workflow.itemsField]: items });
	const cpuBefore = processGroupCpuMs(n8nProcessGroup);
	const started = process.hrtime.bigint();
	const response = await fetch(`${n8nUrl}/webhook/${workflow.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
	});
	await response.arrayBuffer();
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	const n8nCpuMs = processGroupCpuMs(n8nProcessGroup) - cpuBefore;

	// The execution is stored as the workflow ends, just around the webhook's answer.
	const id = await waitFor(
		`the execution of ${workflow.id}`,
		async () => {
			const latest = await latestExecutionId(client, workflow.id);
			return latest && latest.id !== before && latest.stoppedAt ? latest.id : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 100 },
	);
	const execution: Execution = await client.execution(id);
	const nodeRun = execution.data?.resultData.runData[NODE_UNDER_TEST]?.[0] as
		| NodeRunTimes
		| undefined;
	const error = execution.data?.resultData.error ?? nodeRun?.error;
	return {
		status: response.status,
		wallMs,
		nodeMs: nodeRun?.executionTime ?? NaN,
		executionMs: Date.parse(execution.stoppedAt ?? '') - Date.parse(execution.startedAt),
		n8nCpuMs,
		output: (nodeRun?.data?.main[0] ?? []).map((item) => item.json),
		...(error
			? { error: error.description ? `${error.message} (${error.description})` : error.message }
			: {}),
	};
}

let shared: Promise<BenchStack & { stop(): Promise<void> }> | undefined;
let keepOpen = false;

/** Called by bench/index.ts: one stack serves every bench of the run; it stops it at the end. */
export function shareStackBetweenBenches(): void {
	keepOpen = true;
}

/** Runs `use` on the shared stack, starting it on first use; a bench run alone stops it after. */
export async function withBenchStack<T>(use: (stack: BenchStack) => Promise<T>): Promise<T> {
	shared ??= start();
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
