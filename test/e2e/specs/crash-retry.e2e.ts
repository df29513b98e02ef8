import { join } from 'node:path';

import { E2E_OWNER } from '../setup/state';
import { lastSeq, type LoggedRequest, sandboxRequests } from '../lib/assertions';
import {
	CREATIONS,
	type CrashBatch,
	countKind,
	crashWorkflowsDir,
	ORDERS,
	progressOf,
	rowsDone,
} from '../lib/crashRetry';
import { credentialsFor, loadWorkflows, newSigningSecret } from '../lib/fixtures';
import { sleep, waitFor } from '../lib/http';
import type { Execution } from '../lib/n8nApi';
import { startN8n } from '../lib/n8nProcess';
import { killStarted } from '../lib/processes';
import { type OrgState, SandboxAdmin } from '../lib/sandbox';
import { type Stack, startStack } from '../lib/stack';
import { loadSuite } from '../lib/suiteContext';

// n8n dies mid-batch: four batches running at once in one n8n (100 support cases, 100 GO_BULK quote
// requests, 100 haulage quotations, 200 orders quoted, booked and paid), n8n and its task runner
// killed with SIGKILL when every batch is about halfway (the orders in their bookings), n8n started
// again on the same user folder and database, and each crashed execution retried as the editor's
// Executions › Retry does. The workflows have Save execution progress on: n8n refuses to retry a
// crash without it. Whatever the node kept in memory died with the process; what survives is the
// execution as n8n saved it after the last finished node. The sandbox must then hold every record
// once, and each retry's output every row. On an n8n and a sandbox of their own (this file kills
// n8n), the sandbox holding each request and its answer LATENCY_MS so the kill lands mid-batch.
const suite = loadSuite();
const BATCHES = [ORDERS, ...CREATIONS];
/** With Concurrency 5 in the workflows: about 40 rows a second per batch, 2.5 s per 100. */
const LATENCY_MS = 50;
const log = (line: string) => process.stderr.write(`e2e crash retry: ${line}\n`);

let stack: Stack;
let admin: SandboxAdmin;
const crashed = new Map<CrashBatch, Execution>();
const retried = new Map<CrashBatch, Execution>();
let atKill: OrgState;
let after: OrgState;
let retryRequests: LoggedRequest[];

beforeAll(async () => {
	const began = Date.now();
	const at = () => `${((Date.now() - began) / 1000).toFixed(1)} s`;
	stack = await startStack({
		workDir: join(suite.workDir, 'crash-retry'),
		owner: E2E_OWNER,
		apiKey: true,
		fixtures: (sandbox) => ({
			credentials: credentialsFor(sandbox, newSigningSecret(), ['full']),
			workflows: loadWorkflows(sandbox, crashWorkflowsDir),
			activate: [],
		}),
		log,
	});
	admin = new SandboxAdmin(stack.sandbox.info);
	await admin.setLatency(LATENCY_MS);
	log(`stack up after ${at()}`);

	const executionIds = new Map<CrashBatch, string>();
	const start = async (batch: CrashBatch) => {
		const { executionId } = await stack.client.startManualRun(
			batch.workflowId,
			'When clicking ‘Execute workflow’',
		);
		if (!executionId) throw new Error(`n8n started no execution of ${batch.title}`);
		executionIds.set(batch, executionId);
	};
	const until = async (what: string, done: (state: OrgState) => boolean) =>
		await waitFor(
			what,
			async () => {
				const state = await admin.stateOfOrgA();
				return done(state) ? state : undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 50 },
		);

	// The orders first: 200 quotes come before their bookings. The creations start once an eighth
	// of the bookings are made (they then reach half as the bookings do), and n8n dies when each
	// batch is at least half done, the orders a quarter.
	await start(ORDERS);
	await until('an eighth of the bookings', (state) => progressOf(ORDERS, state) >= ORDERS.size / 8);
	await Promise.all(CREATIONS.map(start));
	await until(
		'half of each creation batch',
		(state) =>
			progressOf(ORDERS, state) >= ORDERS.size / 4 &&
			CREATIONS.every((batch) => progressOf(batch, state) >= batch.size / 2),
	);
	await killStarted(stack.n8n.process);
	log(`n8n killed with SIGKILL after ${at()}`);
	// Requests the sandbox held when n8n died still commit: count once they have.
	await sleep(4 * LATENCY_MS + 200);
	atKill = await admin.stateOfOrgA();

	stack.n8n = await startN8n(stack.instance);
	log(`n8n started again after ${at()}`);
	for (const batch of BATCHES) {
		const id = executionIds.get(batch)!;
		crashed.set(
			batch,
			await waitFor(`execution ${id} to show as crashed`, async () => {
				const execution = await stack.client.execution(id);
				return execution.status === 'running' ? undefined : execution;
			}),
		);
	}
	const since = await lastSeq(admin);
	await Promise.all(
		BATCHES.map(async (batch) =>
			retried.set(batch, await stack.client.retryExecution(crashed.get(batch)!.id, false)),
		),
	);
	retryRequests = await sandboxRequests(admin, since);
	after = await admin.stateOfOrgA();
	log(`retries done after ${at()}`);
	for (const batch of BATCHES) {
		for (const kind of batch.kinds) {
			const before = countKind(kind, atKill);
			const now = countKind(kind, after);
			log(
				`${batch.title}: ${kind.name} at the kill ${before.records}, after the retry ` +
					`${now.records} for ${now.distinct} rows (${now.duplicates} duplicates)`,
			);
		}
	}
}, 300_000);

afterAll(async () => {
	await stack?.n8n.stop();
	await stack?.sandbox.stop();
});

describe.each(BATCHES.map((batch) => [batch.title, batch] as const))('%s', (_title, batch) => {
	it('was killed about halfway', () => {
		const done = progressOf(batch, atKill);
		expect(done).toBeGreaterThanOrEqual(batch.size / 4);
		expect(done).toBeLessThanOrEqual((batch.size * 3) / 4);
	});

	it('shows as crashed after the restart, and Retry runs it again as a new execution', () => {
		const failed = crashed.get(batch)!;
		expect(failed.status).toBe('crashed');
		expect(retried.get(batch)).toMatchObject({
			status: 'success',
			mode: 'retry',
			retryOf: failed.id,
		});
	});

	it('0 duplicates at the sandbox: each row made once', () => {
		const counts = batch.kinds.map((kind) => ({ kind: kind.name, ...countKind(kind, after) }));
		expect(counts).toEqual(
			batch.kinds.map((kind) => ({
				kind: kind.name,
				records: batch.size,
				distinct: batch.size,
				duplicates: 0,
			})),
		);
	});

	it("every row done: the retry's output holds a record for each row, one the sandbox holds", () => {
		const execution = retried.get(batch)!;
		for (const kind of batch.kinds) {
			const { items, rows } = rowsDone(kind, execution, after);
			expect({ kind: kind.name, items, rows }).toEqual({
				kind: kind.name,
				items: batch.size,
				rows: batch.size,
			});
		}
	});
});

it("the retries' requests were all answered as made: new, or the API's replay", () => {
	const answers: Record<string, { created: number; replayed: number; other: number[] }> = {};
	for (const post of retryRequests.filter((request) => request.method === 'POST')) {
		const path = post.path.replace(/\/[a-z]+_[A-Za-z0-9_]+/g, '/{id}');
		const counts = (answers[path] ??= { created: 0, replayed: 0, other: [] });
		if (post.status !== 201) counts.other.push(post.status);
		else if (post.replayed) counts.replayed++;
		else counts.created++;
	}
	log(`the retries' POSTs: ${JSON.stringify(answers)}`);
	for (const counts of Object.values(answers)) expect(counts.other).toEqual([]);
});
