import { join } from 'node:path';

import { lastSeq, sandboxRequests } from '../lib/assertions';
import { POLLING_TRIGGER } from '../lib/fixtures';
import {
	CaseWatch,
	CaseWatchScenario,
	POLL_FAILED,
	type PollingStack,
	startPollingStack,
	WATCH,
} from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';

// The Partner Logistics Polling Trigger in real n8n: the support case watch sample, published and
// polling through n8n's own scheduler, against the sandbox. It runs on an n8n and a sandbox of its
// own (this file restarts n8n); the steps and what must hold are in ../lib/polling.ts, shared
// with the queue suite.
const suite = loadSuite();
let polling: PollingStack;
let watch: CaseWatch;

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling'),
		archiveDir: join(suite.logDir, 'polling'),
		log: (line) => process.stderr.write(`e2e polling: ${line}\n`),
	});
	watch = new CaseWatch(polling.client, polling.admin, polling.stack.sandbox.info);
}, 240_000);

afterAll(async () => await polling?.stop());

describe('the polling trigger in real n8n', () => {
	let scenario: CaseWatchScenario;
	beforeAll(() => (scenario = new CaseWatchScenario(polling, watch)));

	it('Fetch Test Event shows the cases as they are now, before anything is published', async () => {
		await scenario.fetchTestEventShowsCurrentCases();
	});

	it('Fetch Test Event of a poll that gets a 500 shows the error on the trigger', async () => {
		await scenario.failNextPolls();
		const test = await watch.fetchTestEvent();
		await polling.admin.setFaults({});
		expect(test.status).toBe('error');
		expect(test.data?.resultData.error?.message).toMatch(POLL_FAILED);
		expect(test.data?.resultData.error?.node?.name).toBe(POLLING_TRIGGER);
	});

	it('publishing polls at once and emits nothing: the first poll only learns the cases', async () => {
		await scenario.publishingOnlyLearns();
	});

	it('emits a new case once', async () => {
		await scenario.newCaseOnce();
	});

	it('emits a changed case once, and never the unchanged one', async () => {
		await scenario.changedCaseOnceUnchangedNever();
	});

	it('a poll that gets a 500 emits nothing; the change it missed comes once with the next poll', async () => {
		await scenario.failedPollLosesNothing();
	});

	it('repeats nothing after n8n restarts', async () => {
		await scenario.restartRepeatsNothing();
	});

	it('emits a change made while n8n was down once, when it is back', async () => {
		await scenario.changeWhileDownOnce();
	});

	it('n8n refuses a Poll Time more often than once a minute, as the README says', async () => {
		const workflow = await polling.client.publicApi<{ nodes: Array<Record<string, unknown>> }>(
			'GET',
			`/workflows/${WATCH}`,
		);
		const nodes = workflow.body.nodes.map((node) =>
			node.name === POLLING_TRIGGER
				? {
						...node,
						parameters: {
							...(node.parameters as object),
							pollTimes: { item: [{ mode: 'custom', cronExpression: '*/5 * * * * *' }] },
						},
					}
				: node,
		);
		const created = await polling.client.publicApi<{ id: string }>('POST', '/workflows', {
			name: 'Support case watch, every 5 seconds',
			nodes,
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		expect(created.status).toBe(200);
		await polling.client.activateWorkflow(created.body.id);
		// n8n 2.41 publishes in the background: the outcome is the workflow's publication status.
		const status = await watch.publicationStatus(created.body.id);
		expect(status).toMatchObject({
			status: 'failed',
			triggers: [
				{
					status: 'failed',
					errorMessage: expect.stringContaining(
						'The polling interval is too short. It has to be at least a minute.',
					),
				},
			],
		});
	});

	it("publishing while the API fails: n8n tries the first poll 5 times, then reports the poll's error", async () => {
		const copy = await polling.client.publicApi<{ nodes: unknown[]; connections: unknown }>(
			'GET',
			`/workflows/${WATCH}`,
		);
		const created = await polling.client.publicApi<{ id: string }>('POST', '/workflows', {
			name: 'Support case watch, published while the API fails',
			nodes: copy.body.nodes,
			connections: copy.body.connections,
			settings: { executionOrder: 'v1' },
		});
		expect(created.status).toBe(200);
		// The watch stops polling, so the fault is for the new workflow's first poll.
		expect((await polling.client.publicApi('POST', `/workflows/${WATCH}/deactivate`)).status).toBe(
			200,
		);
		expect(await watch.publicationStatus()).toMatchObject({ status: 'not_published' });
		const since = await lastSeq(polling.admin);
		await scenario.failNextPolls(5);
		await polling.client.activateWorkflow(created.body.id);
		const status = await watch.publicationStatus(created.body.id);
		await polling.admin.setFaults({});
		// n8n 2.41 retries a trigger's activation 5 times, 1, 2, 4 and 8 s apart.
		const polls = await sandboxRequests(polling.admin, since);
		expect(polls.map((request) => [request.path, request.status])).toEqual(
			Array(5).fill(['/partner-api/support-cases', 500]),
		);
		expect(status).toMatchObject({
			status: 'failed',
			triggers: [
				{
					status: 'failed',
					errorMessage: expect.stringMatching(/Could not check support cases: .*\(500\)/),
				},
			],
		});
	});
});
