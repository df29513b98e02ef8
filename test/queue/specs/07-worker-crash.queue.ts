import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { E2E_OWNER } from '../../e2e/setup/state';
import { lastSeq, type LoggedRequest, postsTo, sandboxRequests } from '../../e2e/lib/assertions';
import {
	countKind,
	CREATIONS,
	crashWorkflowsDir,
	progressOf,
	rowsDone,
	startedByWebhook,
} from '../../e2e/lib/crashRetry';
import { credentialsFor, loadWorkflows, newSigningSecret } from '../../e2e/lib/fixtures';
import { requestJson, sleep, waitFor } from '../../e2e/lib/http';
import type { Execution } from '../../e2e/lib/n8nApi';
import type { N8nServer } from '../../e2e/lib/n8nProcess';
import { killStarted } from '../../e2e/lib/processes';
import { queueEnv, roleLogFile, startWorker } from '../../e2e/lib/queueMode';
import { type OrgState, SandboxAdmin } from '../../e2e/lib/sandbox';
import { type Service, startRedis } from '../../e2e/lib/services';
import { type Stack, startStack } from '../../e2e/lib/stack';
import { createDatabase, loadQueueSuite } from '../setup/context';
import { logLines } from '../setup/executions';

// A queue-mode worker killed with SIGKILL in the middle of a batch (100 support cases, Save
// execution progress on), another worker started at once as an orchestrator would: what n8n does
// with the job and the execution, what its Retry does, and what the sandbox holds once the batch is
// sent again. This file kills a worker, so it runs a main and workers of its own, on a database of
// their own in the suite's Postgres and a Redis of their own; the main takes the production webhook
// itself and queues the execution. Each worker keeps its own event log, as one in a container of
// its own would: sharing one would let the new worker recover the dead one's execution from it.
const suite = loadQueueSuite();
const run = promisify(execFile);
const DATABASE = 'n8n_worker_crash';
const workDir = join(suite.workDir, 'worker-crash');
const CASES = CREATIONS[0];
const PATH = 'crash-support-cases';
const SUPPORT_CASES = /^\/partner-api\/support-cases$/;
const LATENCY_MS = 50;
/**
 * Bull's timing on the workers, shortened from n8n's defaults (a job's lock held 60 s, renewed
 * every 10 s; a worker looks for stalled jobs every 30 s) so the wait for a dead worker's job takes
 * seconds. What n8n does then is the same: see the README for the figures with the defaults.
 */
const BULL_TIMING = {
	QUEUE_WORKER_LOCK_DURATION: '10000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};
const log = (line: string) => process.stderr.write(`queue worker crash: ${line}\n`);

let redis: Service;
let stack: Stack;
let admin: SandboxAdmin;
const workers: N8nServer[] = [];
let crashedId: string;
let jobId: string;
let atKill: OrgState;
/** The dead worker's execution once n8n ended it, the sandbox then, and its Bull job. */
let ended: { execution: Execution; state: OrgState; job: Record<string, string> };
let retried: Run;
let again: Run;

interface Run {
	execution: Execution;
	requests: LoggedRequest[];
}

/** A Bull job's hash (`<prefix>:jobs:<id>`), its fields by name; `{ removed }` once it is gone. */
async function bullJob(id: string): Promise<Record<string, string>> {
	const redisCli = async (...args: string[]) =>
		(await run('redis-cli', ['-h', '127.0.0.1', '-p', String(redis.port), ...args])).stdout.trim();
	const key = (await redisCli('--scan', '--pattern', `*:jobs:${id}`)).split('\n')[0];
	if (!key) return { removed: 'true' };
	const fields = (await redisCli('HGETALL', key)).split('\n');
	return Object.fromEntries(
		fields.flatMap((field, index) => (index % 2 ? [] : [[field, fields[index + 1]]])),
	);
}

/** The executions a worker's log says it started, each with the Bull job it ran it as. */
const startedOn = (worker: string) =>
	logLines(roleLogFile(stack.instance, worker)).flatMap((line) => {
		const match = /^Worker started execution (\d+) \(job (\d+)\)/.exec(line.message ?? '');
		return match ? [{ executionId: match[1], jobId: match[2] }] : [];
	});
const ranOn = (worker: string, executionId: string) =>
	startedOn(worker).some((started) => started.executionId === executionId);

const startWorkerNamed = async (name: string) =>
	workers.push(
		await startWorker(stack.instance, name, {
			...BULL_TIMING,
			N8N_EVENTBUS_LOGWRITER_LOGBASENAME: `n8nEventLog-${name}`,
		}),
	);

/** The batch sent to the production webhook; resolves once the main has queued it. */
const sendBatch = async () =>
	await waitFor('the batch webhook', async () => {
		const answer = await requestJson(`${stack.n8n.baseUrl}/webhook/${PATH}`, { body: {} });
		return answer.status === 200 ? true : undefined;
	});

/** What `act` started, and the support case requests the sandbox received meanwhile. */
async function runWithRequests(act: () => Promise<Execution>): Promise<Run> {
	const since = await lastSeq(admin);
	const execution = await act();
	return { execution, requests: postsTo(await sandboxRequests(admin, since), SUPPORT_CASES) };
}

beforeAll(async () => {
	const began = Date.now();
	const seconds = () => Math.round((Date.now() - began) / 100) / 10;
	await createDatabase(suite.postgres, DATABASE);
	mkdirSync(join(workDir, 'logs'), { recursive: true });
	redis = await startRedis(workDir, join(workDir, 'logs'));
	stack = await startStack({
		workDir,
		owner: E2E_OWNER,
		apiKey: true,
		instanceEnv: {
			...queueEnv({
				postgresPort: suite.postgres.port,
				postgresUser: suite.postgres.user,
				database: DATABASE,
				redisPort: redis.port,
			}),
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'false',
		},
		fixtures: (sandbox) => {
			const [cases] = loadWorkflows(sandbox, crashWorkflowsDir).filter(
				(workflow) => workflow.id === CASES.workflowId,
			);
			return {
				credentials: credentialsFor(sandbox, newSigningSecret(), ['full']),
				workflows: [startedByWebhook(cases, PATH)],
				activate: [CASES.workflowId],
			};
		},
		log,
	});
	await startWorkerNamed('worker-1');
	admin = new SandboxAdmin(stack.sandbox.info);
	await admin.setLatency(LATENCY_MS);

	await sendBatch();
	await waitFor(
		'half of the batch',
		async () => (progressOf(CASES, await admin.stateOfOrgA()) >= CASES.size / 2 ? true : undefined),
		{ timeoutMs: 60_000, intervalMs: 50 },
	);
	await killStarted(workers[0].process);
	const killedAt = seconds();
	// This n8n ran nothing else: the one execution worker-1 started is the batch.
	[{ executionId: crashedId, jobId }] = startedOn('worker-1');
	await sleep(4 * LATENCY_MS + 200);
	atKill = await admin.stateOfOrgA();
	log(`worker-1 killed with SIGKILL after ${killedAt} s, in execution ${crashedId} (job ${jobId})`);

	await startWorkerNamed('worker-2');
	const execution = await waitFor(
		`execution ${crashedId} to end`,
		async () => {
			const current = await stack.client.execution(crashedId);
			return current.status === 'running' ? undefined : current;
		},
		{ timeoutMs: 180_000, intervalMs: 500 },
	);
	ended = { execution, state: await admin.stateOfOrgA(), job: await bullJob(jobId) };
	log(
		`${(seconds() - killedAt).toFixed(1)} s after the kill, execution ${crashedId} ${execution.status}: ` +
			`${execution.data?.resultData.error?.message}; its Bull job ${JSON.stringify(ended.job)}`,
	);

	retried = await runWithRequests(() => stack.client.retryExecution(crashedId, false));
	log(`its Retry: ${retried.execution.status}, ${retried.requests.length} support case requests`);
	again = await runWithRequests(async () => {
		await sendBatch();
		return await waitFor('the batch sent again to end', async () => {
			const [last] = await stack.client.executions(CASES.workflowId);
			return last && last.mode === 'webhook' && last.id !== crashedId ? last : undefined;
		});
	});
	const counted = countKind(CASES.progress, await admin.stateOfOrgA());
	log(
		`the batch sent again: ${again.execution.status}, ${again.requests.length} requests ` +
			`(${again.requests.filter((post) => post.replayed).length} replays); cases at the kill ` +
			`${progressOf(CASES, atKill)}, now ${counted.records} for ${counted.distinct} rows ` +
			`(${counted.duplicates} duplicates)`,
	);
}, 300_000);

afterAll(async () => {
	await Promise.all(workers.map((worker) => worker.stop()));
	await Promise.all([stack?.n8n.stop(), stack?.sandbox.stop()]);
	await redis?.stop();
	if (existsSync(join(workDir, 'logs'))) {
		cpSync(join(workDir, 'logs'), join(suite.logDir, 'worker-crash'), { recursive: true });
	}
});

it('the worker was killed about halfway through the batch', () => {
	const done = progressOf(CASES, atKill);
	expect(done).toBeGreaterThanOrEqual(CASES.size / 4);
	expect(done).toBeLessThanOrEqual((CASES.size * 3) / 4);
});

it('no worker runs the job again: once Bull finds it stalled, the main fails the execution', () => {
	expect(ended.execution.status).toBe('error');
	expect(ended.execution.data?.resultData.error?.message).toMatch(
		/^This execution failed to be processed too many times and will no longer retry/,
	);
	expect(ended.job).toEqual({ removed: 'true' });
	expect(ranOn('worker-2', crashedId)).toBe(false);
	expect(progressOf(CASES, ended.state)).toBe(progressOf(CASES, atKill));
});

it('the saved progress is gone: its Retry runs nothing and ends in the same error', () => {
	expect(ended.execution.data?.resultData.runData).toEqual({});
	expect(retried.execution).toMatchObject({ mode: 'retry', retryOf: crashedId, status: 'error' });
	expect(retried.execution.data?.resultData.error?.message).toBe(
		ended.execution.data?.resultData.error?.message,
	);
	expect(retried.requests).toEqual([]);
});

it('the batch sent again: 0 duplicates at the sandbox, every row done', async () => {
	expect(again.execution.status).toBe('success');
	const after = await admin.stateOfOrgA();
	expect(countKind(CASES.progress, after)).toEqual({
		records: CASES.size,
		distinct: CASES.size,
		duplicates: 0,
	});
	expect(rowsDone(CASES.progress, again.execution, after)).toEqual({
		items: CASES.size,
		rows: CASES.size,
	});
});
