import {
	derivedKey,
	lastSeq,
	type LoggedRequest,
	postsTo,
	sandboxRequests,
} from '../../e2e/lib/assertions';
import { requestJson, waitFor } from '../../e2e/lib/http';
import { type Execution, nodeOutput, nodePairedItems } from '../../e2e/lib/n8nApi';
import type { FaultPlan } from '../../sandbox';
import { loadQueueSuite, QUEUE_WORKFLOWS } from '../setup/context';
import { ranExecution, settledExecutions } from '../setup/executions';

// n8n's Executions › Retry in queue mode: a production execution that fails on the worker when
// the API refuses one booking of five, retried from the main's REST API; the retry is queued and
// runs on the worker too, from the failed execution's data as saved in Postgres (node context
// included, where the node keeps its Idempotency-Keys). The sandbox replays a stored refusal for
// its key, as Stripe does, so only a fresh key can book the refused order.
const suite = loadQueueSuite();
const WORKFLOW = QUEUE_WORKFLOWS.executionRetry;
const [webhookA, webhookB] = suite.webhookProcesses;
const QUOTE = 'Quote each order';
const BOOK = 'Book each quote';
const BOOKINGS = /^\/partner-api\/bookings$/;
const QUOTES = /^\/partner-api\/booking-quotes$/;
const ORDERS = ['ORD-2001', 'ORD-2002', 'ORD-2003', 'ORD-2004', 'ORD-2005'];

const refuseOneBooking: FaultPlan = {
	failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: '/partner-api/bookings' }],
};

interface Run {
	execution: Execution;
	requests: LoggedRequest[];
}

const keyOf = (request: LoggedRequest) => request.headers['idempotency-key'];
const quoteIdOf = (request: LoggedRequest) => (request.body as { quoteId?: string }).quoteId;
const keysSent = new Set<string>();

/** The processes whose log says they ran the execution (the worker logs each one it starts). */
const ranOn = (executionId: string) =>
	waitFor(`a process to log that it ran execution ${executionId}`, async () => {
		const roles = Object.entries(suite.logFiles)
			.filter(([, file]) => ranExecution(file, executionId))
			.map(([role]) => role);
		return roles.length ? roles : undefined;
	});

async function recorded(start: () => Promise<Execution>): Promise<Run> {
	const since = await lastSeq(suite.admin);
	const execution = await start();
	const requests = await sandboxRequests(suite.admin, since);
	for (const request of requests) keysSent.add(keyOf(request));
	return { execution, requests };
}

/**
 * Calls the production webhook on a webhook process (until that process knows the workflow; a 404
 * starts nothing) and returns the execution the worker ran, under a fault plan cleared afterwards.
 */
async function executeOn(webhookProcess: string, plan: FaultPlan = {}): Promise<Run> {
	const before = (await settledExecutions(suite.client, WORKFLOW, 0)).length;
	await suite.admin.setFaults(plan);
	try {
		return await recorded(async () => {
			await waitFor(`the order webhook on ${webhookProcess}`, async () => {
				const answer = await requestJson(`${webhookProcess}/webhook/queue-execution-retry`, {
					body: {},
				});
				return answer.status === 404 ? undefined : answer.status;
			});
			return (await settledExecutions(suite.client, WORKFLOW, before + 1))[0];
		});
	} finally {
		await suite.admin.setFaults({});
	}
}

async function bookingsOf(quoteIds: unknown[]) {
	const { bookings } = await suite.admin.stateOfOrgA();
	return bookings.filter((booking) => quoteIds.includes(booking.quoteId));
}

let replayRefusalsBefore: boolean;

beforeAll(async () => {
	const state = await suite.admin.get<{ settings: { replayRefusals: boolean } }>('/state');
	replayRefusalsBefore = state.settings.replayRefusals;
	await suite.admin.setReplayRefusals(true);
});

afterAll(async () => {
	await suite.admin.setFaults({});
	await suite.admin.setReplayRefusals(replayRefusalsBefore);
});

describe.each([
	['Retry with original workflow', false, webhookA],
	['Retry with currently saved workflow', true, webhookB],
])('%s of an execution the worker ran', (_kind, loadWorkflow, webhookProcess) => {
	let failed: Run;
	let retried: Run;
	let quoteIds: string[];
	let firstPostOf: Map<string, LoggedRequest>;
	let refused: LoggedRequest;
	let bookedBeforeRetry: unknown[];

	beforeAll(async () => {
		failed = await executeOn(webhookProcess, refuseOneBooking);
		quoteIds = nodeOutput(failed.execution, QUOTE).map((quote) => quote.quoteId as string);
		const posts = postsTo(failed.requests, BOOKINGS);
		firstPostOf = new Map(posts.map((post) => [quoteIdOf(post)!, post]));
		refused = posts.find((post) => post.status === 400)!;
		bookedBeforeRetry = (await bookingsOf(quoteIds)).map((booking) => booking.quoteId);
		retried = await recorded(() => suite.client.retryExecution(failed.execution.id, loadWorkflow));
	});

	it('first fails on the worker at the booking node, with four of five bookings made', async () => {
		expect(failed.execution).toMatchObject({ status: 'error', mode: 'webhook' });
		expect(failed.execution.data?.resultData.error).toMatchObject({
			node: { name: BOOK },
			message: expect.stringMatching(/^The API refused the request as invalid \(400\)/),
		});
		expect(await ranOn(failed.execution.id)).toEqual(['worker']);
		expect(nodeOutput(failed.execution, QUOTE).map((quote) => quote.externalReference)).toEqual(
			ORDERS,
		);
		const posts = postsTo(failed.requests, BOOKINGS);
		expect(posts.map((post) => post.status).sort()).toEqual([201, 201, 201, 201, 400]);
		expect([...bookedBeforeRetry].sort()).toEqual(
			quoteIds.filter((quoteId) => quoteId !== quoteIdOf(refused)).sort(),
		);
	});

	it('is retried as a new execution, run by the worker, and succeeds', async () => {
		expect(retried.execution).toMatchObject({
			status: 'success',
			mode: 'retry',
			retryOf: failed.execution.id,
		});
		expect(retried.execution.id).not.toBe(failed.execution.id);
		expect(await ranOn(retried.execution.id)).toEqual(['worker']);
	});

	it('outputs five bookings, each paired with its quote, one booking per quote in the sandbox', async () => {
		const bookings = nodeOutput(retried.execution, BOOK);
		expect(bookings.map((booking) => booking.quoteId)).toEqual(quoteIds);
		expect(nodePairedItems(retried.execution, BOOK)).toEqual(ORDERS.map((_, item) => ({ item })));
		const stored = await bookingsOf(quoteIds);
		expect(stored.map((booking) => booking.quoteId).sort()).toEqual([...quoteIds].sort());
		expect(stored.map((booking) => booking.bookingId).sort()).toEqual(
			bookings.map((booking) => booking.bookingId).sort(),
		);
	});

	it('resent the four booked orders under their first keys (replays), the refused one under a fresh key', () => {
		const posts = postsTo(retried.requests, BOOKINGS);
		expect(posts.map(quoteIdOf).sort()).toEqual([...quoteIds].sort());
		for (const post of posts) {
			const first = firstPostOf.get(quoteIdOf(post)!)!;
			if (first === refused) {
				expect([post.status, post.replayed]).toEqual([201, undefined]);
				expect(keyOf(post)).toEqual(derivedKey('booking.create'));
				expect(keyOf(post)).not.toBe(keyOf(refused));
			} else {
				expect([keyOf(post), post.status, post.replayed]).toEqual([keyOf(first), 201, true]);
			}
			expect(post.body).toEqual(first.body);
		}
	});

	it('requested no quote again', () => {
		expect(postsTo(retried.requests, QUOTES)).toEqual([]);
	});
});

describe('a new production execution of the same workflow', () => {
	it('sends every item under a new key, none used by the earlier runs', async () => {
		const earlierKeys = new Set(keysSent);
		expect(earlierKeys.size).toBe(2 * (5 + 5 + 1));
		const fresh = await executeOn(webhookA);
		expect(fresh.execution).toMatchObject({ status: 'success', mode: 'webhook' });
		expect(await ranOn(fresh.execution.id)).toEqual(['worker']);
		const quotes = postsTo(fresh.requests, QUOTES);
		const bookings = postsTo(fresh.requests, BOOKINGS);
		expect([...quotes, ...bookings].map((post) => [post.status, post.replayed])).toEqual(
			Array.from({ length: 10 }, () => [201, undefined]),
		);
		const keys = [...quotes, ...bookings].map(keyOf);
		expect(new Set(keys).size).toBe(10);
		expect(keys.filter((key) => earlierKeys.has(key))).toEqual([]);
	});
});
