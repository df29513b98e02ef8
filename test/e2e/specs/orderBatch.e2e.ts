import {
	expectNodePost,
	expectSucceeded,
	type LoggedRequest,
	postsTo,
	runWithRequests,
} from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// Three orders through one Quote node whose On Error is "Continue (using error output)": the
// second order has latitude 123, which the node must stop before sending.
const suite = loadSuite();
const QUOTE = 'Quote each order';
const BOOK = 'Book each quote';

const validOrderRoutes = {
	'ORD-1001': {
		serviceType: 'CLICK',
		pickupAddress: '12 Allen Avenue, Ikeja, Lagos',
		pickupLatitude: 6.6005,
		pickupLongitude: 3.3541,
		dropoffAddress: '5 Admiralty Way, Lekki, Lagos',
		dropoffLatitude: 6.4433,
		dropoffLongitude: 3.4702,
		externalReference: 'ORD-1001',
		recipientName: 'Ada Obi',
	},
	'ORD-1003': {
		serviceType: 'CLICK',
		pickupAddress: '1 Ahmadu Bello Way, Victoria Island, Lagos',
		pickupLatitude: 6.4281,
		pickupLongitude: 3.4219,
		dropoffAddress: '14 Opebi Road, Ikeja, Lagos',
		dropoffLatitude: 6.5893,
		dropoffLongitude: 3.3626,
		externalReference: 'ORD-1003',
		recipientName: 'Chidi Eze',
	},
};

/** Items are sent concurrently, so requests are matched to orders by their reference. */
const byReference = (requests: LoggedRequest[]) =>
	Object.fromEntries(
		requests.map((request) => [
			(request.body as { externalReference: string }).externalReference,
			request,
		]),
	);

describe('a batch of orders: the invalid one set aside before sending, the others quoted and booked', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.orderBatch));
	});

	it('succeeds: a failed item on the error output does not fail the run', () =>
		expectSucceeded(execution));

	it('puts the invalid order on the error output, naming item, field and value', () => {
		const expected = [
			{
				error:
					'Item 2 (externalReference ORD-1002): Pickup Latitude (pickupLatitude) must be a number between −90 and 90, got 123',
			},
		];
		expect(nodeOutput(execution, QUOTE, 1)).toEqual(expected);
		expect(nodeOutput(execution, 'Orders to fix')).toEqual(expected);
	});

	it('sent no request for it: one quote POST per valid order, nothing else', () => {
		expect(requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
			'POST /partner-api/booking-quotes',
			'POST /partner-api/booking-quotes',
			'POST /partner-api/bookings',
			'POST /partner-api/bookings',
		]);
		const bodies = requests.map((request) => request.body as Record<string, unknown>);
		expect(
			bodies.filter((body) => body.pickupLatitude === 123 || body.recipientName === 'Bola Ade'),
		).toEqual([]);
	});

	it('quoted each valid order with its own route and Idempotency-Key', () => {
		const quotes = byReference(postsTo(requests, /^\/partner-api\/booking-quotes$/));
		for (const [reference, body] of Object.entries(validOrderRoutes)) {
			expectNodePost(quotes[reference], {
				action: 'quote.create',
				apiKey: suite.sandbox.keys.full,
				body,
			});
		}
		expect(quotes['ORD-1001'].headers['idempotency-key']).not.toBe(
			quotes['ORD-1003'].headers['idempotency-key'],
		);
		expect(nodeOutput(execution, QUOTE).map((quote) => quote.externalReference)).toEqual([
			'ORD-1001',
			'ORD-1003',
		]);
	});

	it('booked each quote with exactly the route it was priced for', () => {
		const quotes = nodeOutput(execution, QUOTE);
		const bookings = nodeOutput(execution, BOOK);
		expect(bookings.map((booking) => booking.quoteId)).toEqual(
			quotes.map((quote) => quote.quoteId),
		);
		const posts = byReference(postsTo(requests, /^\/partner-api\/bookings$/));
		for (const quote of quotes) {
			expectNodePost(posts[quote.externalReference as string], {
				action: 'booking.create',
				apiKey: suite.sandbox.keys.full,
				body: {
					...validOrderRoutes[quote.externalReference as keyof typeof validOrderRoutes],
					quoteId: quote.quoteId,
				},
			});
		}
	});
});
