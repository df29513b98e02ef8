import type { FaultPlan } from '../../sandbox';
import {
	derivedKey,
	expectSucceeded,
	lastSeq,
	type LoggedRequest,
	postsTo,
	sandboxRequests,
} from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { requestJson } from '../lib/http';
import { type Execution, nodeOutput, nodePairedItems } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// n8n's Executions › Retry of a failed execution, in real n8n: five orders quoted and booked, the
// API refusing one booking (400). The sandbox replays a stored refusal for its key, as Stripe
// does, so the retry can only book the refused order under a fresh key; the four bookings already
// made must go out again under their first keys and come back as replays. The node's key memory
// lives in n8n's node context, which n8n saves with the failed execution and hands to the retry.
const suite = loadSuite();
const WORKFLOW = WORKFLOW_IDS.executionRetry;
const QUOTE = 'Quote each order';
const BOOK = 'Book each quote';
const BOOKINGS_PATH = '/partner-api/bookings';
const BOOKINGS = /^\/partner-api\/bookings$/;
const QUOTES = /^\/partner-api\/booking-quotes$/;
const ORDERS = ['ORD-2001', 'ORD-2002', 'ORD-2003', 'ORD-2004', 'ORD-2005'];

const refuseOneBooking: FaultPlan = {
	failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: BOOKINGS_PATH }],
};

interface Run {
	execution: Execution;
	requests: LoggedRequest[];
}

const keyOf = (request: LoggedRequest) => request.headers['idempotency-key'];
const quoteIdOf = (request: LoggedRequest) => (request.body as { quoteId?: string }).quoteId;
/** Every Idempotency-Key sent by the runs of this file so far. */
const keysSent = new Set<string>();

async function recorded(start: () => Promise<Execution>): Promise<Run> {
	const since = await lastSeq(suite.admin);
	const execution = await start();
	const requests = await sandboxRequests(suite.admin, since);
	for (const request of requests) keysSent.add(keyOf(request));
	return { execution, requests };
}

/** Executes the workflow as the editor does, under a fault plan cleared afterwards. */
async function execute(plan: FaultPlan = {}): Promise<Run> {
	await suite.admin.setFaults(plan);
	try {
		return await recorded(() => suite.client.runManually(WORKFLOW));
	} finally {
		await suite.admin.setFaults({});
	}
}

/** The sandbox's bookings of these quotes (its state is shared by the whole suite). */
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
	['Retry with original workflow', false],
	['Retry with currently saved workflow', true],
])('%s, after the API refused one booking of five', (_kind, loadWorkflow) => {
	let failed: Run;
	let retried: Run;
	let quoteIds: string[];
	/** The failed run's booking POST of each quote. */
	let firstPostOf: Map<string, LoggedRequest>;
	let refused: LoggedRequest;
	/** The sandbox's bookings of the quotes once the first run had failed. */
	let bookedBeforeRetry: unknown[];

	beforeAll(async () => {
		failed = await execute(refuseOneBooking);
		quoteIds = nodeOutput(failed.execution, QUOTE).map((quote) => quote.quoteId as string);
		const posts = postsTo(failed.requests, BOOKINGS);
		firstPostOf = new Map(posts.map((post) => [quoteIdOf(post)!, post]));
		refused = posts.find((post) => post.status === 400)!;
		bookedBeforeRetry = (await bookingsOf(quoteIds)).map((booking) => booking.quoteId);
		retried = await recorded(() => suite.client.retryExecution(failed.execution.id, loadWorkflow));
	});

	it('first fails at the booking node, with four of five bookings made', () => {
		expect(failed.execution.status).toBe('error');
		const error = failed.execution.data?.resultData.error;
		expect(error?.node?.name).toBe(BOOK);
		expect(error?.message).toMatch(/^The API refused the request as invalid \(400\)/);
		expect(nodeOutput(failed.execution, QUOTE).map((quote) => quote.externalReference)).toEqual(
			ORDERS,
		);
		const posts = postsTo(failed.requests, BOOKINGS);
		expect(posts.map((post) => post.status).sort()).toEqual([201, 201, 201, 201, 400]);
		expect([...firstPostOf.keys()].sort()).toEqual([...quoteIds].sort());
		expect((refused as LoggedRequest & { fault?: string }).fault).toBe('refuse');
		expect([...bookedBeforeRetry].sort()).toEqual(
			quoteIds.filter((quoteId) => quoteId !== quoteIdOf(refused)).sort(),
		);
	});

	it('runs as a new execution in retry mode, of the failed one, and succeeds', () => {
		expectSucceeded(retried.execution);
		expect(retried.execution.id).not.toBe(failed.execution.id);
		expect(retried.execution).toMatchObject({
			mode: 'retry',
			retryOf: failed.execution.id,
			workflowId: WORKFLOW,
		});
	});

	it('outputs five bookings, each paired with its quote', () => {
		const bookings = nodeOutput(retried.execution, BOOK);
		expect(bookings.map((booking) => booking.quoteId)).toEqual(quoteIds);
		expect(bookings).toEqual(
			quoteIds.map(() => expect.objectContaining({ bookingId: expect.stringMatching(/^bk_/) })),
		);
		expect(nodePairedItems(retried.execution, BOOK)).toEqual(ORDERS.map((_, item) => ({ item })));
	});

	it('leaves exactly one booking per quote in the sandbox, the one the retry output', async () => {
		const stored = await bookingsOf(quoteIds);
		expect(stored.map((booking) => booking.quoteId).sort()).toEqual([...quoteIds].sort());
		const output = nodeOutput(retried.execution, BOOK).map((booking) => booking.bookingId);
		expect(stored.map((booking) => booking.bookingId).sort()).toEqual([...output].sort());
	});

	it('resent the four booked orders under their first keys; the API answered with replays', () => {
		const posts = postsTo(retried.requests, BOOKINGS);
		expect(posts.map(quoteIdOf).sort()).toEqual([...quoteIds].sort());
		const resent = posts.filter((post) => quoteIdOf(post) !== quoteIdOf(refused));
		expect(resent).toHaveLength(4);
		for (const post of resent) {
			const first = firstPostOf.get(quoteIdOf(post)!)!;
			expect(first.status).toBe(201);
			expect([keyOf(post), post.status, post.replayed]).toEqual([keyOf(first), 201, true]);
			expect(post.body).toEqual(first.body);
		}
	});

	it('sent the refused order under a fresh key, and it was booked', () => {
		const posts = postsTo(retried.requests, BOOKINGS);
		const again = posts.filter((post) => quoteIdOf(post) === quoteIdOf(refused));
		expect(again).toHaveLength(1);
		expect(again[0]).toMatchObject({ status: 201, body: refused.body });
		expect(again[0].replayed).toBeUndefined();
		expect(keyOf(again[0])).toEqual(derivedKey('booking.create'));
		expect(keyOf(again[0])).not.toBe(keyOf(refused));
		const keys = posts.map(keyOf);
		expect(new Set(keys).size).toBe(5);
	});

	it('requested no quote again: the retry took the quotes from the failed execution', () => {
		expect(postsTo(retried.requests, QUOTES)).toEqual([]);
		expect(nodeOutput(retried.execution, QUOTE)).toEqual(nodeOutput(failed.execution, QUOTE));
	});

	it('needed the fresh key: the API replays the refusal for the first one', async () => {
		const response = await requestJson(`${suite.sandbox.url}${BOOKINGS_PATH}`, {
			headers: {
				'x-svc-api-key': suite.sandbox.keys.full,
				'idempotency-key': keyOf(refused),
			},
			body: refused.body,
		});
		expect(response.status).toBe(400);
		expect(response.headers.get('idempotent-replayed')).toBe('true');
	});
});

describe('a new execution of the same workflow', () => {
	let earlierKeys: Set<string>;
	let fresh: Run;

	beforeAll(async () => {
		earlierKeys = new Set(keysSent);
		fresh = await execute();
	});

	it('succeeds with five new quotes and five new bookings', () => {
		expectSucceeded(fresh.execution);
		expect(fresh.execution.mode).toBe('manual');
		const quotes = postsTo(fresh.requests, QUOTES);
		const bookings = postsTo(fresh.requests, BOOKINGS);
		expect([...quotes, ...bookings].map((post) => [post.status, post.replayed])).toEqual(
			Array.from({ length: 10 }, () => [201, undefined]),
		);
		expect(nodeOutput(fresh.execution, BOOK)).toHaveLength(5);
	});

	it('sent every item under a new key, none used by the earlier runs', () => {
		// Both retried executions and their retries ran before this one.
		expect(earlierKeys.size).toBe(2 * (5 + 5 + 1));
		const quotes = postsTo(fresh.requests, QUOTES).map(keyOf);
		const bookings = postsTo(fresh.requests, BOOKINGS).map(keyOf);
		expect(quotes).toEqual(ORDERS.map(() => derivedKey('quote.create')));
		expect(bookings).toEqual(ORDERS.map(() => derivedKey('booking.create')));
		expect(new Set([...quotes, ...bookings]).size).toBe(10);
		expect([...quotes, ...bookings].filter((key) => earlierKeys.has(key))).toEqual([]);
	});
});
