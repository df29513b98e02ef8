import {
	expectEachQuoteBookedOnce,
	expectFailedInTheChild,
	expectNewChildOfTheRetry,
	type SubWorkflowRetry,
	SubWorkflowRetryScenario,
} from '../../e2e/lib/subWorkflowRetry';
import { loadQueueSuite, QUEUE_WORKFLOWS } from '../setup/context';
import { executeByWebhook, processesThatRan } from '../setup/executions';

// A sub-workflow re-run by a retried parent, in queue mode: the parent (q06) starts from a
// production webhook on a webhook process and runs on the worker with its sub-workflow (q07);
// the retry is queued from the main and runs there too. What must hold is in
// ../../e2e/lib/subWorkflowRetry.ts, shared with the regular suite; here, also where it ran.
const suite = loadQueueSuite();
const PARENT = QUEUE_WORKFLOWS.subflowOrders;
const [webhookA] = suite.webhookProcesses;

const ranOn = (executionId: string) => processesThatRan(suite.logFiles, executionId);

const retry = new SubWorkflowRetryScenario(
	suite.admin,
	suite.client,
	QUEUE_WORKFLOWS.subflowBook,
	async () =>
		await executeByWebhook(suite.client, PARENT, `${webhookA}/webhook/queue-subworkflow-retry`),
);

beforeAll(async () => await retry.prepare());
afterAll(async () => await retry.restore());

describe.each([
	['Retry with original workflow', false],
	['Retry with currently saved workflow', true],
])('%s of a production parent whose sub-workflow books, on the worker', (_kind, loadWorkflow) => {
	let scenario: SubWorkflowRetry;

	beforeAll(async () => (scenario = await retry.failAndRetry(loadWorkflow)), 180_000);

	it('first fails in the sub-workflow on the worker, with four of five booked', async () => {
		expect(scenario.failed.parent.mode).toBe('webhook');
		expectFailedInTheChild(scenario);
		expect(await ranOn(scenario.failed.parent.id)).toEqual(['worker']);
	});

	it('the retry runs on the worker and starts the sub-workflow as a new execution', async () => {
		expectNewChildOfTheRetry(scenario);
		expect(await ranOn(scenario.retried.parent.id)).toEqual(['worker']);
	});

	it('books each quote exactly once, the refused one after the fix, with no 409, and outputs every item', async () => {
		await expectEachQuoteBookedOnce(scenario, retry);
	});
});
