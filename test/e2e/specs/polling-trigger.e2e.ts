import { join } from 'node:path';

import { POLLING_TRIGGER } from '../lib/fixtures';
import {
	CaseWatch,
	CaseWatchScenario,
	POLL_FAILED,
	type PollingStack,
	startPollingStack,
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
		const test = await watch.fetchTestEvent().finally(() => polling.admin.setFaults({}));
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
});
