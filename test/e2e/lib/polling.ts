import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { E2E_OWNER } from '../setup/state';
import { lastSeq, sandboxRequests } from './assertions';
import {
	credentialsFor,
	loadWorkflows,
	newSigningSecret,
	POLLING_TRIGGER,
	supportCaseWatchEvery,
	WORKFLOW_IDS,
	type WorkflowFixture,
} from './fixtures';
import { expectOk, sleep, waitFor } from './http';
import { type Execution, type N8nClient, nodeOutput } from './n8nApi';
import { type N8nServer, startN8n } from './n8nProcess';
import { killStarted } from './processes';
import { SandboxAdmin, type SandboxInfo } from './sandbox';
import { type Stack, startStack } from './stack';

// The polling trigger in real n8n, as the regular suite (polling-trigger.e2e.ts) and the queue
// suite (05-polling-trigger.queue.ts) run it: the support case watch sample, published, polling
// through n8n's own scheduler every few seconds. Each suite gives it an n8n and a sandbox of its
// own, since the scenario restarts n8n. What must hold is here, once (CaseWatchScenario).

export const WATCH = WORKFLOW_IDS.supportCaseWatch;
/** How often the published watch polls (n8n's minimum Poll Time is a minute; see fixtures). */
export const POLL_SECONDS = 5;
const FINAL = ['success', 'error', 'crashed', 'canceled'];

/**
 * n8n 2.41's durable scheduler taking poll triggers, with durable poll cursors: all four are
 * needed (workflows/triggers/poll-cursor.service.js warns and stays off otherwise).
 */
export const DURABLE_SCHEDULER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

export interface PollingStack {
	stack: Stack;
	client: N8nClient;
	admin: SandboxAdmin;
	/**
	 * Stops the n8n main (the process that polls), runs `whileDown`, and starts the main again on
	 * the same database.
	 */
	restartMain(whileDown?: () => Promise<void>): Promise<void>;
	/** A crash: the main and its task runner killed with SIGKILL, then started again. */
	crashMain(): Promise<void>;
	stop(): Promise<void>;
}

/**
 * A sandbox and an n8n with the package, the credential and the support case watch imported (not
 * published). `instanceEnv` makes it a queue-mode instance; `others` starts its other processes
 * (a worker), which keep running while the main restarts.
 */
export async function startPollingStack(options: {
	workDir: string;
	/** Where the run's logs are archived from; this stack's logs are copied there on stop. */
	archiveDir: string;
	instanceEnv?: Record<string, string>;
	others?: (stack: Stack) => Promise<N8nServer[]>;
	/**
	 * More workflows to import, made from the support case watch (the record watches) or from the
	 * samples, with records made in the running sandbox first (the watch samples).
	 */
	workflows?: (
		caseWatch: WorkflowFixture,
		sandbox: SandboxInfo,
	) => WorkflowFixture[] | Promise<WorkflowFixture[]>;
	log: (line: string) => void;
}): Promise<PollingStack> {
	const stack = await startStack({
		workDir: options.workDir,
		owner: E2E_OWNER,
		apiKey: true,
		instanceEnv: options.instanceEnv,
		fixtures: async (sandbox) => {
			const caseWatch = supportCaseWatchEvery(loadWorkflows(sandbox), POLL_SECONDS);
			return {
				credentials: credentialsFor(sandbox, newSigningSecret(), ['full']),
				workflows: [caseWatch, ...((await options.workflows?.(caseWatch, sandbox)) ?? [])],
				activate: [],
			};
		},
		log: options.log,
	});
	let others: N8nServer[] = [];
	try {
		others = (await options.others?.(stack)) ?? [];
	} catch (error) {
		await stack.stop();
		throw error;
	}
	let main = stack.n8n;
	return {
		stack,
		client: stack.client,
		admin: new SandboxAdmin(stack.sandbox.info),
		restartMain: async (whileDown) => {
			await main.stop();
			await whileDown?.();
			main = await startN8n(stack.instance);
		},
		crashMain: async () => {
			await killStarted(main.process);
			main = await startN8n(stack.instance);
		},
		stop: async () => {
			await Promise.all(others.map((process) => process.stop()));
			await Promise.all([main.stop(), stack.sandbox.stop()]);
			const logs = join(options.workDir, 'logs');
			if (existsSync(logs)) {
				mkdirSync(options.archiveDir, { recursive: true });
				cpSync(logs, options.archiveDir, { recursive: true });
			}
		},
	};
}

/** GET /rest/workflows/:id/publication-status (n8n 2.41). */
export interface PublicationStatus {
	status: 'not_published' | 'in_progress' | 'published' | 'partial' | 'failed';
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

/** What one execution of the watch emitted: the trigger's items. */
export const changesOf = (execution: Execution) => nodeOutput(execution, POLLING_TRIGGER);

/** The support case watch against one sandbox and one n8n, with the steps the specs take. */
export class CaseWatch {
	constructor(
		private readonly client: N8nClient,
		private readonly admin: SandboxAdmin,
		private readonly sandbox: SandboxInfo,
	) {}

	/** A partner API call, as the partner's own systems would make it (not through n8n). */
	private async post(path: string, body: unknown): Promise<Record<string, unknown>> {
		const answer = await expectOk<Record<string, unknown>>(
			`POST ${path}`,
			`${this.sandbox.url}${path}`,
			{
				headers: { 'x-svc-api-key': this.sandbox.keys.full, 'idempotency-key': randomUUID() },
				body,
			},
		);
		return answer.body;
	}

	async openCase(title: string): Promise<string> {
		return String((await this.post('/partner-api/support-cases', { title })).caseId);
	}

	async comment(caseId: string, message: string): Promise<void> {
		await this.post(`/partner-api/support-cases/${caseId}/comments`, { message });
	}

	/** Publishes the watch: n8n polls once at once (the first poll), then at its Poll Times. */
	async publish(): Promise<void> {
		await this.client.activateWorkflow(WATCH);
	}

	/**
	 * A workflow's publication status once n8n has settled it (2.41 publishes in the background:
	 * the activation call answers before the triggers are started, and a trigger that fails to
	 * start, its first poll included, is reported here).
	 */
	async publicationStatus(workflowId: string = WATCH): Promise<PublicationStatus> {
		if ((await this.client.majorVersion()) < 2) {
			// n8n 1.x activates in the request itself and has no publication status: the active flag.
			const { body } = await this.client.publicApi<{ active: boolean }>(
				'GET',
				`/workflows/${workflowId}`,
			);
			return { status: body.active ? 'published' : 'not_published', triggers: [] };
		}
		return await waitFor(`the publication of ${workflowId} to settle`, async () => {
			const { data } = await this.client.rest<PublicationStatus>(
				'GET',
				`/workflows/${workflowId}/publication-status`,
			);
			return data.status === 'in_progress' ? undefined : data;
		});
	}

	/** Every execution of the published watch so far, newest first (Fetch Test Event's aside). */
	async executions(): Promise<Execution[]> {
		return (await this.client.executions(WATCH)).filter((e) => e.mode !== 'manual');
	}

	/**
	 * The executions once at least `count` have ended and a few more polls have passed without
	 * another: what should not happen had its chance to.
	 */
	async settled(count: number): Promise<Execution[]> {
		await waitFor(
			`${count} executions of the support case watch`,
			async () => {
				const list = await this.executions();
				return list.length >= count && list.every((e) => FINAL.includes(e.status))
					? list
					: undefined;
			},
			{ timeoutMs: 90_000, intervalMs: 500 },
		);
		await this.polls(3);
		return await this.executions();
	}

	/** Waits until the watch has polled the API `count` more times (read from the sandbox's log). */
	async polls(count = 1): Promise<void> {
		const since = await lastSeq(this.admin);
		await waitFor(
			`${count} polls of the support case list`,
			async () => {
				const polls = (await sandboxRequests(this.admin, since)).filter(
					(request) => request.method === 'GET' && request.path === '/partner-api/support-cases',
				);
				return polls.length >= count ? true : undefined;
			},
			{ timeoutMs: (count + 2) * POLL_SECONDS * 1000 + 30_000, intervalMs: 250 },
		);
		// The poll's own execution, if any, is recorded right after its request.
		await sleep(1500);
	}

	/** The editor's Fetch Test Event on the watch's trigger. */
	async fetchTestEvent(): Promise<Execution> {
		return await fetchTestEvent(this.client, WATCH);
	}
}

/**
 * The editor's Fetch Test Event on a workflow's polling trigger: POST /rest/workflows/:id/run with
 * the trigger as the node to start from and to run to, as the node's button sends it.
 */
export async function fetchTestEvent(client: N8nClient, workflowId: string): Promise<Execution> {
	const run = await client.startManualRun(workflowId, POLLING_TRIGGER, undefined, POLLING_TRIGGER);
	if (!run.executionId) throw new Error(`n8n started no execution: ${JSON.stringify(run)}`);
	return await client.waitForExecution(run.executionId);
}

const FAIL_500 = {
	failNext: [{ status: 500 as const, method: 'GET', path: '/partner-api/support-cases' }],
};
export const POLL_FAILED =
	/^Could not check support cases: The Partner Logistics API failed \(500\)/;

/**
 * The scenario both suites run, one step per test, each asserting what must hold. A step returns
 * the execution it is about, for a suite's own checks (the queue suite: a worker ran it).
 */
export class CaseWatchScenario {
	/** A case open before the watch was published, and one opened after. */
	private existing = '';
	private created = '';

	constructor(
		private readonly polling: PollingStack,
		private readonly watch: CaseWatch,
	) {}

	/** Fetch Test Event shows the open cases as they are now. */
	async fetchTestEventShowsCurrentCases(): Promise<void> {
		this.existing = await this.watch.openCase('Open before publishing');
		const test = await this.watch.fetchTestEvent();
		expect([test.mode, test.status]).toEqual(['manual', 'success']);
		expect(changesOf(test)).toEqual([
			{
				change: 'current',
				recordId: this.existing,
				changedFields: [],
				record: expect.objectContaining({ caseId: this.existing, status: 'OPEN' }),
			},
		]);
	}

	/** Fetch Test Event of a poll that gets a 500 shows the error on the trigger. */
	async fetchTestEventShowsTheError(): Promise<void> {
		await this.failNextPolls();
		const test = await this.watch.fetchTestEvent().finally(() => this.polling.admin.setFaults({}));
		expect(test.status).toBe('error');
		expect(test.data?.resultData.error?.message).toMatch(POLL_FAILED);
		expect(test.data?.resultData.error?.node?.name).toBe(POLLING_TRIGGER);
	}

	/** Publishing polls at once and emits nothing: the first poll only learns the cases. */
	async publishingOnlyLearns(): Promise<void> {
		await this.watch.publish();
		expect(await this.watch.publicationStatus()).toMatchObject({ status: 'published' });
		await this.watch.polls(2);
		expect(await this.watch.executions()).toEqual([]);
	}

	async newCaseOnce(): Promise<Execution> {
		this.created = await this.watch.openCase('Parcel not delivered');
		const list = await this.watch.settled(1);
		expect(list.map((e) => [e.mode, e.status])).toEqual([['trigger', 'success']]);
		expect(changesOf(list[0])).toEqual([
			{
				change: 'new',
				recordId: this.created,
				changedFields: [],
				record: expect.objectContaining({ caseId: this.created, title: 'Parcel not delivered' }),
			},
		]);
		return list[0];
	}

	async changedCaseOnceUnchangedNever(): Promise<Execution> {
		await this.watch.comment(this.created, 'The recipient is in after 3 pm.');
		const list = await this.watch.settled(2);
		expect(list).toHaveLength(2);
		expect(changesOf(list[0])).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: this.created,
				changedFields: ['updatedAt'],
			}),
		]);
		return list[0];
	}

	/** A poll that gets a 500 emits nothing; the change it missed comes once with the next poll. */
	async failedPollLosesNothing(): Promise<Execution> {
		await this.watch.polls(1);
		// Right after a poll: the change and the fault are both in place for the next one.
		await this.watch.comment(this.existing, 'Any news?');
		await this.polling.admin.setFaults(FAIL_500);
		const list = await this.watch.settled(4);
		expect(list).toHaveLength(4);
		const [changed, failed] = list;
		expect([failed.mode, failed.status]).toEqual(['trigger', 'error']);
		expect(failed.data?.resultData.error?.message).toMatch(POLL_FAILED);
		expect(changesOf(changed)).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: this.existing,
				changedFields: ['updatedAt'],
			}),
		]);
		return changed;
	}

	async restartRepeatsNothing(): Promise<void> {
		await this.polling.restartMain();
		await this.watch.polls(3);
		expect(await this.watch.executions()).toHaveLength(4);
	}

	/**
	 * A change made while n8n was down comes once, when it is back. `downSeconds` keeps n8n down
	 * longer, so several Poll Times pass meanwhile (under the durable scheduler, each is a task
	 * that runs when n8n is back).
	 */
	async changeWhileDownOnce(downSeconds = 0): Promise<Execution> {
		await this.polling.restartMain(async () => {
			await this.watch.comment(this.created, 'Written while n8n was down');
			await sleep(downSeconds * 1000);
		});
		const list = await this.watch.settled(5);
		expect(list).toHaveLength(5);
		expect(changesOf(list[0])).toEqual([
			expect.objectContaining({ change: 'changed', recordId: this.created }),
		]);
		return list[0];
	}

	/** The same 500 for the next `times` polls of the support case list. */
	async failNextPolls(times = 1): Promise<void> {
		await this.polling.admin.setFaults({ failNext: [{ ...FAIL_500.failNext[0], times }] });
	}
}

/**
 * The support case scenario as tests, in order, for a suite's n8n (regular or durable scheduler);
 * `downSeconds` keeps n8n down that long at the restart with a change.
 */
export function caseWatchTests(scenario: () => CaseWatchScenario, downSeconds = 0): void {
	it('Fetch Test Event shows the cases as they are now, before anything is published', async () => {
		await scenario().fetchTestEventShowsCurrentCases();
	});

	it('Fetch Test Event of a poll that gets a 500 shows the error on the trigger', async () => {
		await scenario().fetchTestEventShowsTheError();
	});

	it('publishing polls at once and emits nothing: the first poll only learns the cases', async () => {
		await scenario().publishingOnlyLearns();
	});

	it('emits a new case once', async () => {
		await scenario().newCaseOnce();
	});

	it('emits a changed case once, and never the unchanged one', async () => {
		await scenario().changedCaseOnceUnchangedNever();
	});

	it('a poll that gets a 500 emits nothing; the change it missed comes once with the next poll', async () => {
		await scenario().failedPollLosesNothing();
	});

	it('repeats nothing after n8n restarts', async () => {
		await scenario().restartRepeatsNothing();
	});

	it(`emits a change made while n8n was down${downSeconds ? ` for ${downSeconds} s` : ''} once, when it is back`, async () => {
		await scenario().changeWhileDownOnce(downSeconds);
	});
}

/** What became of a change when n8n was killed right after the poll that found it. */
export interface PollCrash {
	delayMs: number;
	/** From the test seeing the poll's answer logged to the SIGKILL. */
	killedAfterMs: number;
	caseId: string;
	/** Every execution of the watch since the case was opened, and what became of the case. */
	executions: Array<{
		status: string;
		/** Started before the SIGKILL, or after n8n was back. */
		started: 'before the kill' | 'after the restart';
		/** Its trigger output the case. */
		emitted: boolean;
		/** Its saved data names the case anywhere (a crashed execution's input). */
		holds: boolean;
		/** For a crashed execution holding the case: what Executions › Retry made of it. */
		retry?: string;
	}>;
}

const emits = (execution: Execution, caseId: string) =>
	!!execution.data?.resultData.runData[POLLING_TRIGGER] &&
	changesOf(execution).some((change) => change.recordId === caseId);

/**
 * Opens a case, kills n8n (SIGKILL) `delayMs` after the poll that found it, starts it again on the
 * same database, and follows the case: every execution of the watch since, and for a crashed one
 * holding the case, what Executions › Retry made of it. The poll that found it is the first list
 * request the sandbox answered after the case was opened, as the test sees it in the log.
 */
export async function crashAfterPoll(
	polling: PollingStack,
	watch: CaseWatch,
	delayMs: number,
): Promise<PollCrash> {
	const before = new Set((await watch.executions()).map((execution) => execution.id));
	const caseId = await watch.openCase(`Opened before a crash, ${delayMs} ms`);
	const opened = await lastSeq(polling.admin);
	await waitFor(
		'the poll that finds the new case',
		async () => {
			const polls = await polling.admin.get<Array<{ seq: number }>>(
				'/log?method=GET&path=/partner-api/support-cases',
			);
			return polls.some((poll) => poll.seq > opened) ? true : undefined;
		},
		{ timeoutMs: 30_000, intervalMs: 2 },
	);
	const seen = Date.now();
	await sleep(delayMs);
	const crash = polling.crashMain();
	const killedAt = Date.now();
	await crash;
	await watch.polls(2);
	const fresh = (await watch.executions()).filter((execution) => !before.has(execution.id));
	const executions: PollCrash['executions'] = [];
	for (const execution of fresh.filter((e) => e.mode !== 'retry').reverse()) {
		const holds = JSON.stringify(execution.data ?? {}).includes(caseId);
		let retry: string | undefined;
		if (execution.status === 'crashed' && holds) {
			retry = await polling.client.retryExecution(execution.id, false).then(
				(retried) => `${retried.status}${emits(retried, caseId) ? ', emitted' : ''}`,
				(error: Error) => error.message,
			);
		}
		executions.push({
			status: execution.status,
			started: Date.parse(execution.startedAt) < killedAt ? 'before the kill' : 'after the restart',
			emitted: emits(execution, caseId),
			holds,
			...(retry ? { retry } : {}),
		});
	}
	return { delayMs, killedAfterMs: killedAt - seen, caseId, executions };
}

/** How long after the poll that found a change n8n is killed: one kill each. */
export const CRASH_DELAYS_MS = [5, 25, 100];

/**
 * n8n killed right after a poll that found a change, once per CRASH_DELAYS_MS, on a published
 * watch: never delivered twice; under the durable scheduler with durable cursors, never lost either
 * (delivered, or held by a crashed execution that Executions › Retry delivers).
 */
export function crashAfterPollTests(
	polling: () => PollingStack,
	watch: () => CaseWatch,
	{ durable, log }: { durable: boolean; log: (line: string) => void },
): void {
	const trials: PollCrash[] = [];
	const delivered = (trial: PollCrash) =>
		trial.executions.filter((e) => e.emitted || e.retry === 'success, emitted').length;

	beforeAll(async () => {
		for (const delayMs of CRASH_DELAYS_MS) {
			const trial = await crashAfterPoll(polling(), watch(), delayMs);
			trials.push(trial);
			log(
				`killed ${trial.killedAfterMs} ms after the poll that found a change: ` +
					JSON.stringify(trial.executions),
			);
		}
	}, 300_000);

	it('never delivers the change twice', () => {
		const twice = trials.filter((trial) => trial.executions.filter((e) => e.emitted).length > 1);
		expect(twice).toEqual([]);
	});

	if (durable) {
		it('never loses it: delivered, or held by a crashed execution that Retry delivers', () => {
			expect(trials.map(delivered)).toEqual(CRASH_DELAYS_MS.map(() => 1));
		});
	}
}
