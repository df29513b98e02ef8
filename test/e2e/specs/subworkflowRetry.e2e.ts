import { WORKFLOW_IDS } from '../lib/fixtures';
import { loadSuite } from '../lib/suiteContext';
import {
	expectEachQuoteBookedOnce,
	expectFailedInTheChild,
	expectNewChildOfTheRetry,
	type SubWorkflowRetry,
	SubWorkflowRetryScenario,
} from '../lib/subWorkflowRetry';

// A sub-workflow re-run by a retried parent, in real n8n: the sample pair
// (workflows/17-subworkflow-orders.json calls 18-subworkflow-book.json). The parent's retry
// starts the sub-workflow as a new execution with nothing of the first; Booking › Create is
// keyed by its quote, so each quote is still booked once. What must hold is in
// ../lib/subWorkflowRetry.ts, shared with the queue suite.
const suite = loadSuite();
const retry = new SubWorkflowRetryScenario(
	suite.admin,
	suite.client,
	WORKFLOW_IDS.subflowBook,
	async () => await suite.client.runManually(WORKFLOW_IDS.subflowOrders),
);

beforeAll(async () => await retry.prepare());
afterAll(async () => await retry.restore());

describe.each([
	['Retry with original workflow', false],
	['Retry with currently saved workflow', true],
])('%s of a parent whose sub-workflow books', (_kind, loadWorkflow) => {
	let scenario: SubWorkflowRetry;

	beforeAll(async () => (scenario = await retry.failAndRetry(loadWorkflow)), 120_000);

	it('first fails in the sub-workflow with four of five booked, and so does the parent', () => {
		expectFailedInTheChild(scenario);
	});

	it('the retried parent runs the sub-workflow as a new execution, tied to the retry, not to the failed run', () => {
		expectNewChildOfTheRetry(scenario);
		expect(scenario.retried.child.mode).toBe('integrated');
	});

	it('books each quote exactly once, the refused one after the fix, with no 409, and outputs every item', async () => {
		await expectEachQuoteBookedOnce(scenario, retry);
	});
});
