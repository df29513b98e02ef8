import { expectSucceeded } from '../lib/assertions';
import {
	ExecutionRetryScenario,
	expectAllKeysNew,
	expectFailedWithFourBooked,
	expectFiveBookedOnce,
	expectKeysKeptButTheRefusedOne,
	expectRetrySucceeded,
	keyOf,
	type Run,
	type RetryScenario,
} from '../lib/executionRetry';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { requestJson } from '../lib/http';
import { loadSuite } from '../lib/suiteContext';

// n8n's Executions › Retry of a failed execution, in real n8n: five orders quoted and booked, the
// API refusing one booking (400) and replaying that refusal for its key, as Stripe does. The
// retry may only book the refused order, under a fresh key; the four bookings already made go out
// again under their first keys and come back as replays. The node keeps its key memory in n8n's
// node context, which n8n saves with the failed execution and hands to the retry. What must hold
// is in ../lib/executionRetry.ts, shared with the queue suite.
const suite = loadSuite();
const WORKFLOW = WORKFLOW_IDS.executionRetry;
const retry = new ExecutionRetryScenario(suite.admin, suite.client, () =>
	suite.client.runManually(WORKFLOW),
);

beforeAll(async () => await retry.prepare());
afterAll(async () => await retry.restore());

describe.each([
	['Retry with original workflow', false],
	['Retry with currently saved workflow', true],
])('%s, after the API refused one booking of five', (_kind, loadWorkflow) => {
	let scenario: RetryScenario;

	beforeAll(async () => (scenario = await retry.failAndRetry(loadWorkflow)));

	it('first fails at the booking node, with four of five bookings made', () => {
		expectFailedWithFourBooked(scenario);
	});

	it('runs as a new execution in retry mode, of the failed one, and succeeds', () => {
		expectSucceeded(scenario.retried.execution);
		expectRetrySucceeded(scenario);
		expect(scenario.retried.execution.workflowId).toBe(WORKFLOW);
	});

	it('outputs five bookings, each paired with its quote, one booking per quote in the sandbox', async () => {
		await expectFiveBookedOnce(scenario, retry);
	});

	it('resent the booked orders under their first keys (replays), the refused one under a fresh key; no quote again', () => {
		expectKeysKeptButTheRefusedOne(scenario);
	});

	it('needed the fresh key: the API replays the refusal for the first one', async () => {
		const { refused } = scenario;
		const response = await requestJson(`${suite.sandbox.url}/partner-api/bookings`, {
			headers: { 'x-svc-api-key': suite.sandbox.keys.full, 'idempotency-key': keyOf(refused) },
			body: refused.body,
		});
		expect(response.status).toBe(400);
		expect(response.headers.get('idempotent-replayed')).toBe('true');
	});
});

describe('a new execution of the same workflow', () => {
	it('sends every item under a new key, none used by the earlier runs', async () => {
		const earlierKeys = new Set(retry.keysSent);
		const fresh: Run = await retry.run();
		expectSucceeded(fresh.execution);
		expect(fresh.execution.mode).toBe('manual');
		expectAllKeysNew(fresh, earlierKeys);
	});
});
