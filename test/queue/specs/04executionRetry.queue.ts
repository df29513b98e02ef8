import {
	ExecutionRetryScenario,
	expectAllKeysNew,
	expectFailedWithFourBooked,
	expectFiveBookedOnce,
	expectKeysKeptButTheRefusedOne,
	expectRetrySucceeded,
	type RetryScenario,
} from '../../e2e/lib/executionRetry';
import { loadQueueSuite, QUEUE_WORKFLOWS } from '../setup/context';
import { executeByWebhook, processesThatRan } from '../setup/executions';

// n8n's Executions › Retry in queue mode: a production execution that fails on the worker when
// the API refuses one booking of five, retried from the main's REST API; the retry is queued and
// runs on the worker too, from the failed execution's data as saved in Postgres (node context
// included, where the node keeps its Idempotency-Keys). What must hold is in
// ../../e2e/lib/executionRetry.ts, shared with the regular suite; here, also where it ran.
const suite = loadQueueSuite();
const WORKFLOW = QUEUE_WORKFLOWS.executionRetry;
const [webhookA, webhookB] = suite.webhookProcesses;

/** The order webhook on one webhook process; the execution the worker ran. */
const executeOn = (webhookProcess: string) => async () =>
	await executeByWebhook(suite.client, WORKFLOW, `${webhookProcess}/webhook/queue-execution-retry`);
const ranOn = (executionId: string) => processesThatRan(suite.logFiles, executionId);

const retry = new ExecutionRetryScenario(suite.admin, suite.client, executeOn(webhookA));

beforeAll(async () => await retry.prepare());
afterAll(async () => await retry.restore());

describe.each([
	['Retry with original workflow', false, webhookA],
	['Retry with currently saved workflow', true, webhookB],
])('%s of an execution the worker ran', (_kind, loadWorkflow, webhookProcess) => {
	let scenario: RetryScenario;

	beforeAll(async () => {
		scenario = await retry.failAndRetry(loadWorkflow, executeOn(webhookProcess));
	});

	it('first fails on the worker at the booking node, with four of five bookings made', async () => {
		expect(scenario.failed.execution.mode).toBe('webhook');
		expectFailedWithFourBooked(scenario);
		expect(await ranOn(scenario.failed.execution.id)).toEqual(['worker']);
	});

	it('is retried as a new execution, run by the worker, and succeeds', async () => {
		expectRetrySucceeded(scenario);
		expect(await ranOn(scenario.retried.execution.id)).toEqual(['worker']);
	});

	it('outputs five bookings, each paired with its quote, one booking per quote in the sandbox', async () => {
		await expectFiveBookedOnce(scenario, retry);
	});

	it('resent the booked orders under their first keys (replays), the refused one under a fresh key; no quote again', () => {
		expectKeysKeptButTheRefusedOne(scenario);
	});
});

describe('a new production execution of the same workflow', () => {
	it('sends every item under a new key, none used by the earlier runs', async () => {
		const earlierKeys = new Set(retry.keysSent);
		const fresh = await retry.run();
		expect(fresh.execution).toMatchObject({ status: 'success', mode: 'webhook' });
		expect(await ranOn(fresh.execution.id)).toEqual(['worker']);
		expectAllKeysNew(fresh, earlierKeys);
	});
});
