import type { FaultPlan } from '../../sandbox';
import { derivedKey, lastSeq, type LoggedRequest, postsTo, sandboxRequests } from './assertions';
import { type Execution, type N8nClient, nodeOutput, nodePairedItems } from './n8nApi';
import type { SandboxAdmin } from './sandbox';

// n8n's Executions › Retry of a failed batch, as the regular suite (executionRetry.e2e.ts) and the
// queue suite (04executionRetry.queue.ts) run it: five orders quoted and booked by the sample
// workflow (test/e2e/workflows/15-execution-retry.json, test/queue/workflows/q05), the API
// refusing one booking (400), the sandbox replaying a stored refusal for its key as Stripe does.
// Only how a run starts differs between the suites; what must hold is here, once.

export const ORDERS = ['ORD-2001', 'ORD-2002', 'ORD-2003', 'ORD-2004', 'ORD-2005'];
export const QUOTE = 'Quote each order';
export const BOOK = 'Book each quote';
export const BOOKINGS = /^\/partner-api\/bookings$/;
export const QUOTES = /^\/partner-api\/booking-quotes$/;

/** The API refuses the next booking to arrive, after reserving its key (so it replays it). */
export const refuseOneBooking: FaultPlan = {
	failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: '/partner-api/bookings' }],
};

export interface Run {
	execution: Execution;
	requests: LoggedRequest[];
}

export const keyOf = (request: LoggedRequest) => request.headers['idempotency-key'];
const quoteIdOf = (request: LoggedRequest) => (request.body as { quoteId?: string }).quoteId;

/** The failed run, its retry, and what they are judged by. */
export interface RetryScenario {
	failed: Run;
	retried: Run;
	quoteIds: string[];
	refused: LoggedRequest;
	/** The quotes the sandbox held bookings for once the first run had failed. */
	bookedBeforeRetry: string[];
}

/** The scenario against one sandbox and one n8n; `execute` starts the workflow its suite's way. */
export class ExecutionRetryScenario {
	/** Every Idempotency-Key sent by the runs so far. */
	readonly keysSent = new Set<string>();
	private replayRefusalsBefore = false;

	constructor(
		private readonly admin: SandboxAdmin,
		private readonly client: N8nClient,
		private readonly execute: () => Promise<Execution>,
	) {}

	/** Replay-refusals on for the file's runs; `restore` puts the shared sandbox back. */
	async prepare(): Promise<void> {
		const state = await this.admin.get<{ settings: { replayRefusals: boolean } }>('/state');
		this.replayRefusalsBefore = state.settings.replayRefusals;
		await this.admin.setReplayRefusals(true);
	}

	async restore(): Promise<void> {
		await this.admin.setFaults({});
		await this.admin.setReplayRefusals(this.replayRefusalsBefore);
	}

	/** A run, under a fault plan cleared afterwards, with what reached the sandbox meanwhile. */
	async run(plan: FaultPlan = {}, start = this.execute): Promise<Run> {
		const since = await lastSeq(this.admin);
		await this.admin.setFaults(plan);
		let execution: Execution;
		try {
			execution = await start();
		} finally {
			await this.admin.setFaults({});
		}
		const requests = await sandboxRequests(this.admin, since);
		for (const request of requests) this.keysSent.add(keyOf(request));
		return { execution, requests };
	}

	/** A run with one booking refused, then n8n's Retry of it (REST, either kind). */
	async failAndRetry(loadWorkflow: boolean, start = this.execute): Promise<RetryScenario> {
		const failed = await this.run(refuseOneBooking, start);
		const quoteIds = nodeOutput(failed.execution, QUOTE).map((quote) => quote.quoteId as string);
		const posts = postsTo(failed.requests, BOOKINGS);
		const bookedBeforeRetry = (await this.bookingsOf(quoteIds)).map(
			(booking) => booking.quoteId as string,
		);
		const retried = await this.run({}, () =>
			this.client.retryExecution(failed.execution.id, loadWorkflow),
		);
		return {
			failed,
			retried,
			quoteIds,
			refused: posts.find((post) => post.status === 400)!,
			bookedBeforeRetry,
		};
	}

	/** The sandbox's bookings of these quotes (its state is shared by the whole suite). */
	async bookingsOf(quoteIds: string[]) {
		const { bookings } = await this.admin.stateOfOrgA();
		return bookings.filter((booking) => quoteIds.includes(booking.quoteId as string));
	}
}

/** The first run failed at the booking node with four of five bookings made. */
export function expectFailedWithFourBooked({
	failed,
	quoteIds,
	refused,
	bookedBeforeRetry,
}: RetryScenario) {
	expect(failed.execution.status).toBe('error');
	expect(failed.execution.data?.resultData.error).toMatchObject({
		node: { name: BOOK },
		message: expect.stringMatching(/^The API refused the request as invalid \(400\)/),
	});
	expect(nodeOutput(failed.execution, QUOTE).map((quote) => quote.externalReference)).toEqual(
		ORDERS,
	);
	const posts = postsTo(failed.requests, BOOKINGS);
	expect(posts.map((post) => post.status).sort()).toEqual([201, 201, 201, 201, 400]);
	expect((refused as LoggedRequest & { fault?: string }).fault).toBe('refuse');
	expect([...bookedBeforeRetry].sort()).toEqual(
		quoteIds.filter((quoteId) => quoteId !== quoteIdOf(refused)).sort(),
	);
}

/** The retry is a new execution in retry mode, of the failed one, and succeeded. */
export function expectRetrySucceeded({ failed, retried }: RetryScenario) {
	expect(retried.execution).toMatchObject({
		status: 'success',
		mode: 'retry',
		retryOf: failed.execution.id,
	});
	expect(retried.execution.id).not.toBe(failed.execution.id);
}

/** Five bookings out, paired with their quotes; one booking per quote in the sandbox, those. */
export async function expectFiveBookedOnce(scenario: RetryScenario, retry: ExecutionRetryScenario) {
	const { retried, quoteIds } = scenario;
	const bookings = nodeOutput(retried.execution, BOOK);
	expect(bookings.map((booking) => booking.quoteId)).toEqual(quoteIds);
	expect(bookings).toEqual(
		quoteIds.map(() => expect.objectContaining({ bookingId: expect.stringMatching(/^bk_/) })),
	);
	expect(nodePairedItems(retried.execution, BOOK)).toEqual(ORDERS.map((_, item) => ({ item })));
	const stored = await retry.bookingsOf(quoteIds);
	expect(stored.map((booking) => booking.quoteId).sort()).toEqual([...quoteIds].sort());
	expect(stored.map((booking) => booking.bookingId).sort()).toEqual(
		bookings.map((booking) => booking.bookingId).sort(),
	);
}

/**
 * The four booked orders went out again under their first keys and came back as replays; the
 * refused one under a fresh derived key, booked; the same bodies; no quote requested again.
 */
export function expectKeysKeptButTheRefusedOne(scenario: RetryScenario) {
	const { failed, retried, quoteIds, refused } = scenario;
	const posts = postsTo(retried.requests, BOOKINGS);
	expectBookedAgainButTheRefused(postsTo(failed.requests, BOOKINGS), posts, refused, quoteIds);
	expect(new Set(posts.map(keyOf)).size).toBe(5);
	expect(postsTo(retried.requests, QUOTES)).toEqual([]);
	expect(nodeOutput(retried.execution, QUOTE)).toEqual(nodeOutput(failed.execution, QUOTE));
}

/**
 * The booking POSTs of a run that asked again for each quote: the refused quote's under a fresh
 * derived key, booked; every other one under its first key, answered as a replay; the same bodies.
 */
export function expectBookedAgainButTheRefused(
	firstPosts: LoggedRequest[],
	posts: LoggedRequest[],
	refused: LoggedRequest,
	quoteIds: string[],
) {
	expect(posts.map(quoteIdOf).sort()).toEqual([...quoteIds].sort());
	for (const post of posts) {
		const first = firstPosts.find((earlier) => quoteIdOf(earlier) === quoteIdOf(post))!;
		if (first === refused) {
			expect([post.status, post.replayed]).toEqual([201, undefined]);
			expect(keyOf(post)).toEqual(derivedKey('booking.create'));
			expect(keyOf(post)).not.toBe(keyOf(refused));
		} else {
			expect([keyOf(post), post.status, post.replayed]).toEqual([keyOf(first), 201, true]);
		}
		expect(post.body).toEqual(first.body);
	}
}

/** A new execution after both retried ones: ten new requests, every key new. */
export function expectAllKeysNew(fresh: Run, earlierKeys: Set<string>) {
	// Both failed executions and their retries ran before: 5 quotes, 5 + 1 bookings each.
	expect(earlierKeys.size).toBe(2 * (5 + 5 + 1));
	const quotes = postsTo(fresh.requests, QUOTES);
	const bookings = postsTo(fresh.requests, BOOKINGS);
	expect([...quotes, ...bookings].map((post) => [post.status, post.replayed])).toEqual(
		Array.from({ length: 10 }, () => [201, undefined]),
	);
	expect(quotes.map(keyOf)).toEqual(ORDERS.map(() => derivedKey('quote.create')));
	expect(bookings.map(keyOf)).toEqual(ORDERS.map(() => derivedKey('booking.create')));
	const keys = [...quotes, ...bookings].map(keyOf);
	expect(new Set(keys).size).toBe(10);
	expect(keys.filter((key) => earlierKeys.has(key))).toEqual([]);
	expect(nodeOutput(fresh.execution, BOOK)).toHaveLength(5);
}
