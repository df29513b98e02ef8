import type { FaultPlan } from '../../sandbox';
import {
	derivedKey,
	expectSucceeded,
	lastSeq,
	type LoggedRequest,
	onlyItem,
	postsTo,
	sandboxRequests,
} from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import type { Execution } from '../lib/n8nApi';
import { N8nLog } from '../lib/n8nLog';
import { loadSuite } from '../lib/suiteContext';

// Booking › Create in real n8n, against lost answers and rate limiting: the node retries with the
// same Idempotency-Key itself. The workflow also sets n8n's Retry On Fail (3 tries, 1 s apart), as
// a cautious user would; it is not needed. The quote before it has the same setting.
const suite = loadSuite();
const QUOTE = 'Quote a CLICK delivery';
const BOOK = 'Book the quote';
const BOOKINGS = /^\/partner-api\/bookings$/;
const QUOTES = /^\/partner-api\/booking-quotes$/;

interface Run {
	execution: Execution;
	requests: LoggedRequest[];
	/** How many times n8n started the booking node (Retry On Fail reruns it). */
	bookingNodeStarts: number;
}

/** Runs the workflow under a fault plan, which is cleared afterwards whatever happens. */
async function runWith(plan: FaultPlan): Promise<Run> {
	const since = await lastSeq(suite.admin);
	const log = N8nLog.mark(suite.logDir);
	await suite.admin.setFaults(plan);
	let execution: Execution;
	try {
		execution = await suite.client.runManually(WORKFLOW_IDS.bookingRetry);
	} finally {
		await suite.admin.setFaults({});
	}
	expectSucceeded(execution);
	return {
		execution,
		requests: await sandboxRequests(suite.admin, since),
		bookingNodeStarts: await log.nodeStarts(WORKFLOW_IDS.bookingRetry, BOOK),
	};
}

async function bookingsOfQuote(quoteId: unknown) {
	const { bookings } = await suite.admin.stateOfOrgA();
	return bookings.filter((booking) => booking.quoteId === quoteId);
}

describe('Retry On Fail when the API commits a booking but its answer is lost', () => {
	let run: Run;

	beforeAll(async () => {
		// The plan counts every POST, not only bookings: the quote's answer is lost first, then the
		// booking's. Each node's retry must get the stored answer back.
		run = await runWith({ dropAfterCommit: 2 });
	});

	it('succeeds, with the booking in the booking node output', () => {
		const quote = onlyItem(run.execution, QUOTE);
		expect(onlyItem(run.execution, BOOK)).toMatchObject({
			bookingId: expect.stringMatching(/^bk_/),
			quoteId: quote.quoteId,
			status: 'AWAITING_PAYMENT',
		});
	});

	it('leaves exactly one booking for the quote in the sandbox', async () => {
		const quote = onlyItem(run.execution, QUOTE);
		const booking = onlyItem(run.execution, BOOK);
		const stored = await bookingsOfQuote(quote.quoteId);
		expect(stored.map((b) => b.bookingId)).toEqual([booking.bookingId]);
	});

	it('sent the booking twice with one Idempotency-Key; the second was answered as a replay', () => {
		const posts = postsTo(run.requests, BOOKINGS);
		expect(posts.map((post) => [post.status, post.replayed])).toEqual([
			[0, undefined],
			[201, true],
		]);
		expect(posts[0].headers['idempotency-key']).toEqual(derivedKey('booking.create'));
		expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
		expect(posts[1].body).toEqual(posts[0].body);
	});

	it('made the second attempt itself, in one run of the node (Retry On Fail was not needed)', () => {
		expect(run.bookingNodeStarts).toBe(1);
	});

	it('recovered the quote the same way: one key, the second answer a replay', () => {
		const posts = postsTo(run.requests, QUOTES);
		expect(posts.map((post) => [post.status, post.replayed])).toEqual([
			[0, undefined],
			[201, true],
		]);
		expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
		expect(posts[1].headers['idempotency-key']).not.toBe(
			postsTo(run.requests, BOOKINGS)[0].headers['idempotency-key'],
		);
	});
});

describe('a booking refused with 429 twice, then accepted', () => {
	let run: Run;

	beforeAll(async () => {
		run = await runWith({
			failNext: [
				{
					status: 429,
					times: 2,
					retryAfterSeconds: 0,
					method: 'POST',
					path: '/partner-api/bookings',
				},
			],
		});
	});

	it('succeeds with one booking for the quote', async () => {
		const quote = onlyItem(run.execution, QUOTE);
		const booking = onlyItem(run.execution, BOOK);
		expect(booking).toMatchObject({
			bookingId: expect.stringMatching(/^bk_/),
			quoteId: quote.quoteId,
		});
		expect((await bookingsOfQuote(quote.quoteId)).map((b) => b.bookingId)).toEqual([
			booking.bookingId,
		]);
	});

	it('retried with the same Idempotency-Key until the API accepted it', () => {
		const posts = postsTo(run.requests, BOOKINGS);
		expect(posts.map((post) => post.status)).toEqual([429, 429, 201]);
		expect(posts.some((post) => post.replayed)).toBe(false);
		const keys = new Set(posts.map((post) => post.headers['idempotency-key']));
		expect([...keys]).toEqual([derivedKey('booking.create')]);
	});

	it('retried inside the node (429 is its own to retry): n8n ran the node once', () => {
		expect(run.bookingNodeStarts).toBe(1);
	});
});
