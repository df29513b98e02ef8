import { requestJson, waitFor } from '../../e2e/lib/http';
import {
	expectEachQuoteBookedOnce,
	expectFailedInTheChild,
	expectNewChildOfTheRetry,
	type SubWorkflowRetry,
	SubWorkflowRetryScenario,
} from '../../e2e/lib/subWorkflowRetry';
import { loadQueueSuite, QUEUE_WORKFLOWS } from '../setup/context';
import { ranExecution, settledExecutions } from '../setup/executions';

// A sub-workflow re-run by a retried parent, in queue mode: the parent (q06) starts from a
// production webhook on a webhook process and runs on the worker with its sub-workflow (q07);
// the retry is queued from the main and runs there too. What must hold is in
// ../../e2e/lib/subWorkflowRetry.ts, shared with the regular suite; here, also where it ran.
const suite = loadQueueSuite();
const PARENT = QUEUE_WORKFLOWS.subflowOrders;
const [webhookA] = suite.webhookProcesses;

/** Calls the parent's production webhook and returns the execution the worker ran. */
async function executeOnWebhookProcess() {
	const before = (await settledExecutions(suite.client, PARENT, 0)).length;
	await waitFor(`the order webhook on ${webhookA}`, async () => {
		const answer = await requestJson(`${webhookA}/webhook/queue-subworkflow-retry`, { body: {} });
		return answer.status === 404 ? undefined : answer.status;
	});
	return (await settledExecutions(suite.client, PARENT, before + 1))[0];
}

const ranOn = (executionId: string) =>
	waitFor(`a process to log that it ran execution ${executionId}`, async () => {
		const roles = Object.entries(suite.logFiles)
			.filter(([, file]) => ranExecution(file, executionId))
			.map(([role]) => role);
		return roles.length ? roles : undefined;
	});

const retry = new SubWorkflowRetryScenario(
	suite.admin,
	suite.client,
	QUEUE_WORKFLOWS.subflowBook,
	executeOnWebhookProcess,
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
