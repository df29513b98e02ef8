import { derivedKey, expectSucceeded, postsTo, runWithRequests } from '../lib/assertions';
import {
	type BatchRun,
	CHAIN_NODES,
	orderRows,
	PAYMENTS,
	postBatch,
	type Preview,
	refusingOneBooking,
	requestLine,
	retried,
	type Row,
	strictApiWhileRunning,
} from '../lib/dryRun';
import { BOOKINGS, keyOf, QUOTES } from '../lib/executionRetry';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// Dry Run along a chain in real n8n: the Dry Run sample's `chain` step
// (workflows/22-dry-run-batch.json) quotes each row, books the quote and pays the booking, each
// node's Dry Run set by one expression on the batch's `dryRun`. A creation's preview carries a
// stand-in for the id the API would answer, so the booking and the payment are previewed too;
// a node with Dry Run off refuses a stand-in or a preview however it got there
// (workflows/27-dry-run-leftovers.json).
const suite = loadSuite();
const ROWS = 100;
const standIn = (id: string, item: number, node: string) =>
	`[dry run: ${id} of item ${item} from "${node}"]`;
const chain = (dryRun: boolean, rows: Row[]) => postBatch(suite, { dryRun, step: 'chain', rows });
const previewsOf = (run: BatchRun, node: string) =>
	nodeOutput(run.execution, node) as unknown as Preview[];
const byJson = (values: unknown[]) => values.map((value) => JSON.stringify(value)).sort();

describe(`${ROWS} rows quoted, booked and paid: Dry Run on all three, then off`, () => {
	const rows = orderRows(ROWS, 'CHAIN');
	let dry: BatchRun;
	let real: BatchRun;
	let quotes: Preview[];
	let bookings: Preview[];
	let payments: Preview[];

	beforeAll(async () => {
		dry = await chain(true, rows);
		real = await chain(false, rows);
		[quotes, bookings, payments] = [CHAIN_NODES.quote, CHAIN_NODES.book, CHAIN_NODES.pay].map(
			(node) => previewsOf(dry, node),
		);
	});

	it(`sends nothing and outputs ${ROWS * 3} previews`, () => {
		expectSucceeded(dry.execution);
		expect(dry.requests).toEqual([]);
		expect([quotes.length, bookings.length, payments.length]).toEqual([ROWS, ROWS, ROWS]);
	});

	it("each booking's and payment's preview carries its stand-in", () => {
		quotes.forEach((quote, index) => {
			const item = index + 1;
			expect(quote.quoteId).toBe(standIn('quoteId', item, CHAIN_NODES.quote));
			const booking = bookings[index];
			expect(booking.body?.quoteId).toBe(quote.quoteId);
			expect(booking.bookingId).toBe(standIn('bookingId', item, CHAIN_NODES.book));
			expect(booking.dryRun).toContain(
				`quoteId is a stand-in from "${CHAIN_NODES.quote}": a real run sends the real quoteId and keys by it.`,
			);
			const payment = payments[index];
			expect(requestLine(payment).url).toBe(
				`${suite.sandbox.url}/partner-api/bookings/${encodeURIComponent(String(booking.bookingId))}/payment`,
			);
			expect(payment.reference).toBe(standIn('reference', item, CHAIN_NODES.pay));
		});
	});

	it('the real run sends the previewed requests but for the stand-ins and the keys made of them', () => {
		expectSucceeded(real.execution);
		expect(real.requests).toHaveLength(ROWS * 3);
		const sentQuotes = postsTo(real.requests, QUOTES);
		// Quotes: byte for byte, under the previewed keys (made of the rows, not of a stand-in).
		expect(byJson(sentQuotes.map((post) => [post.body, keyOf(post)]))).toEqual(
			byJson(quotes.map((quote) => [quote.body, quote.idempotencyKey])),
		);
		// Bookings: the previewed body with the real quoteId; payments: the real booking's path.
		const quoted = nodeOutput(real.execution, CHAIN_NODES.quote);
		const booked = nodeOutput(real.execution, CHAIN_NODES.book);
		const realQuoteId = new Map(
			quotes.map((quote, index) => [quote.quoteId, quoted[index].quoteId]),
		);
		expect(byJson(postsTo(real.requests, BOOKINGS).map((post) => post.body))).toEqual(
			byJson(
				bookings.map((booking) => ({
					...booking.body,
					quoteId: realQuoteId.get(booking.body?.quoteId),
				})),
			),
		);
		const sentPayments = postsTo(real.requests, PAYMENTS);
		expect(byJson(sentPayments.map((post) => [post.path, post.body]))).toEqual(
			byJson(
				payments.map((payment, index) => [
					`/partner-api/bookings/${String(booked[index].bookingId)}/payment`,
					payment.body,
				]),
			),
		);
		const previewedKeys = new Set([...bookings, ...payments].map((p) => p.idempotencyKey));
		for (const post of [...postsTo(real.requests, BOOKINGS), ...sentPayments]) {
			expect(previewedKeys.has(keyOf(post))).toBe(false);
		}
		expect(postsTo(real.requests, BOOKINGS).map(keyOf)).toEqual(
			Array.from({ length: ROWS }, () => derivedKey('booking.create')),
		);
		expect(real.requests.every((request) => request.status === 201)).toBe(true);
	});
});

describe('a preview reaching a node with Dry Run off (workflows/27-dry-run-leftovers.json)', () => {
	let run: BatchRun;

	beforeAll(async () => {
		run = await runWithRequests(suite, WORKFLOW_IDS.dryRunLeftovers);
	});

	it('sends nothing', () => {
		expectSucceeded(run.execution);
		expect(run.requests).toEqual([]);
	});

	it.each([
		['through pinned data', 'Pay the pinned booking', 'Item 1 is a Dry Run preview from "Book"'],
		[
			'through a Set node',
			'Pay the copied booking',
			'Item 1 sends bookingId as a Dry Run stand-in from "Book"',
		],
		[
			'from an upstream node left in Dry Run',
			'Book for real',
			'Item 1 is a Dry Run preview from "Quote left in Dry Run"',
		],
	])('%s: refused with the message, on the error output', (_how, node, start) => {
		expect(nodeOutput(run.execution, node)).toEqual([]);
		const errors = nodeOutput(run.execution, node, 1);
		expect(errors.map((item) => item.error)).toEqual([`${start}: turn off Dry Run there`]);
	});
});

describe('dry, then real with a booking refused, then Executions › Retry: each quote booked once, each booking paid once', () => {
	const rows = orderRows(10, 'CHAIN-RETRY');
	let dry: BatchRun;
	let failed: BatchRun;
	let retriedRun: BatchRun;

	strictApiWhileRunning(suite.admin);
	beforeAll(async () => {
		dry = await chain(true, rows);
		failed = await refusingOneBooking(suite.admin, () => chain(false, rows));
		retriedRun = await retried(suite, failed.execution.id);
	});

	it('the dry run sends nothing; the real run fails at the refused booking; the retry succeeds', () => {
		expectSucceeded(dry.execution);
		expect(dry.requests).toEqual([]);
		expect(failed.execution.status).toBe('error');
		expect(postsTo(failed.requests, PAYMENTS)).toEqual([]);
		expectSucceeded(retriedRun.execution);
		expect(retriedRun.execution).toMatchObject({ mode: 'retry', retryOf: failed.execution.id });
		expect(postsTo(retriedRun.requests, QUOTES)).toEqual([]);
	});

	it('each quote is booked once and each booking paid once', async () => {
		const quoteIds = nodeOutput(failed.execution, CHAIN_NODES.quote).map((q) => String(q.quoteId));
		expect(quoteIds).toHaveLength(rows.length);
		const { bookings, payments } = await suite.admin.stateOfOrgA();
		const booked = bookings.filter((booking) => quoteIds.includes(String(booking.quoteId)));
		expect(booked.map((booking) => String(booking.quoteId)).sort()).toEqual([...quoteIds].sort());
		const bookingIds = booked.map((booking) => String(booking.bookingId));
		const paid = payments.filter((payment) => bookingIds.includes(String(payment.resourceId)));
		expect(paid.map((payment) => String(payment.resourceId)).sort()).toEqual(
			[...bookingIds].sort(),
		);
		expect(
			nodeOutput(retriedRun.execution, CHAIN_NODES.pay).map((payment) => payment.resourceId),
		).toHaveLength(rows.length);
	});
});
