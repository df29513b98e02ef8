import { COMMIT_WAIT_MS } from '../../../nodes/PartnerLogistics/polling/overlap';
import { requestQuotation, useSandbox, watchIds } from './helpers';

// Under n8n's durable scheduler with durable poll cursors, as test/harness/poll.ts imitates it
// (the end-to-end suite runs the real one): a poll's memory is read when its task starts and
// committed with the execution it starts, later. Polls started before that commit must not emit
// the change again; the memory they were handed says so (its generation).

const context = useSandbox();
let sandbox: typeof context.sandbox;
let api: typeof context.api;
beforeAll(() => ({ sandbox, api } = context));
afterEach(() => jest.restoreAllMocks());

async function watchedPair() {
	const [first, second] = [await requestQuotation(api), await requestQuotation(api)];
	const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', [first, second]);
	// The first task learns the requests and commits its cursor at once.
	expect((await trigger.durable.startTask().run()).items).toBeNull();
	expect(trigger.durable.cursor()).toMatchObject({ memory: { generation: 1 } });
	return { trigger, first, second };
}

describe('polls under the durable scheduler', () => {
	test('the Poll Times missed while n8n was down start together: the change comes once', async () => {
		const { trigger, first } = await watchedPair();
		sandbox.admin.issueQuoteRequestQuotation(first);
		// n8n is back: three overdue tasks start, each reading the committed cursor.
		const tasks = [1, 2, 3].map(() => trigger.durable.startTask());
		const results = [];
		for (const task of tasks) results.push(await task.run());
		expect(results.map((result) => result.items?.map((item) => item.recordId) ?? null)).toEqual([
			[first],
			null,
			null,
		]);
		trigger.durable.commitEmitted();
		expect(trigger.executions).toHaveLength(1);
		expect((await trigger.durable.startTask().run()).items).toBeNull();
		expect(trigger.durable.cursor()).toMatchObject({ memory: { generation: 2 } });
	});

	test('tasks polling at the same moment: one emits', async () => {
		const { trigger, second } = await watchedPair();
		sandbox.admin.issueQuoteRequestQuotation(second);
		const tasks = [1, 2, 3, 4].map(() => trigger.durable.startTask());
		const results = await Promise.all(tasks.map(async (task) => await task.run()));
		expect(results.filter((result) => result.items !== null)).toEqual([
			{ items: [expect.objectContaining({ change: 'changed', recordId: second })] },
		]);
		trigger.durable.commitEmitted();
		expect((await trigger.durable.startTask().run()).items).toBeNull();
		expect(trigger.executions).toHaveLength(1);
	});

	test('a later change after the commit comes once more', async () => {
		const { trigger, first } = await watchedPair();
		sandbox.admin.issueQuoteRequestQuotation(first);
		await trigger.durable.startTask().run();
		trigger.durable.commitEmitted();
		sandbox.admin.issueQuoteRequestQuotation(first, { amount: 190_000 });
		expect((await trigger.durable.startTask().run()).items).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: first,
				changedFields: ['quotation', 'updatedAt'],
			}),
		]);
		trigger.durable.commitEmitted();
		expect(trigger.executions).toHaveLength(2);
	});

	test('a poll whose commit never comes (lost lease): the change comes after COMMIT_WAIT_MS, once', async () => {
		const { trigger, first } = await watchedPair();
		sandbox.admin.issueQuoteRequestQuotation(first);
		expect((await trigger.durable.startTask().run()).items).toHaveLength(1);
		trigger.durable.dropEmitted();
		expect((await trigger.durable.startTask().run()).items).toBeNull();

		const now = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => now() + COMMIT_WAIT_MS + 1000);
		expect((await trigger.durable.startTask().run()).items).toEqual([
			expect.objectContaining({ change: 'changed', recordId: first }),
		]);
		trigger.durable.commitEmitted();
		expect((await trigger.durable.startTask().run()).items).toBeNull();
		expect(trigger.executions).toHaveLength(1);
	});
});
