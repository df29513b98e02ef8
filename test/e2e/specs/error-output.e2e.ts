import {
	expectSucceeded,
	lastSeq,
	type LoggedRequest,
	postsTo,
	sandboxRequests,
} from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput, nodePairedItems } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// On Error › Continue (using error output) in real n8n, for both ways an item can fail: the batch
// sample (workflows/08-order-batch.json) whose second order has latitude 123, which the node stops
// before sending, run while the API refuses the first quote request to arrive (400).
const suite = loadSuite();
const QUOTE = 'Quote each order';
const BOOK = 'Book each quote';
const FIX = 'Orders to fix';
const ORDERS = ['ORD-1001', 'ORD-1002', 'ORD-1003'];
const INVALID = 1;
const QUOTES = /^\/partner-api\/booking-quotes$/;
const REFUSAL = {
	message: 'Dropoff address is outside the delivery area',
	field: 'dropoffAddress',
};

const referenceOf = (request: LoggedRequest) =>
	(request.body as { externalReference?: string }).externalReference;

describe('a batch with one order refused before sending and one refused by the API', () => {
	let execution: Execution;
	let requests: LoggedRequest[];
	/** Input index of the order the API refused (requests leave concurrently: either valid one). */
	let refusedIndex: number;
	let acceptedIndex: number;

	beforeAll(async () => {
		const since = await lastSeq(suite.admin);
		await suite.admin.setFaults({
			failNext: [
				{
					kind: 'refuse',
					status: 400,
					method: 'POST',
					path: '/partner-api/booking-quotes',
					...REFUSAL,
				},
			],
		});
		try {
			execution = await suite.client.runManually(WORKFLOW_IDS.orderBatch);
		} finally {
			await suite.admin.setFaults({});
		}
		requests = await sandboxRequests(suite.admin, since);
		const refused = postsTo(requests, QUOTES).find((request) => request.status === 400);
		refusedIndex = ORDERS.indexOf(refused ? referenceOf(refused)! : '');
		acceptedIndex = [0, 2].find((index) => index !== refusedIndex)!;
	});

	it('succeeds: items on the error output do not fail the run', () => {
		expectSucceeded(execution);
		expect([0, 2]).toContain(refusedIndex);
	});

	it('puts exactly the two failed orders on the error output, each paired with its input', () => {
		const failedIndexes = [INVALID, refusedIndex].sort();
		expect(nodePairedItems(execution, QUOTE, 1)).toEqual(failedIndexes.map((item) => ({ item })));
		const errors = nodeOutput(execution, QUOTE, 1);
		expect(errors.map((item) => item.error)).toEqual(
			failedIndexes.map((index) =>
				index === INVALID
					? 'Item 2 (externalReference ORD-1002): Pickup Latitude (pickupLatitude) must be a number between −90 and 90, got 123'
					: `The API refused the request as invalid (400): ${REFUSAL.message} [field: ${REFUSAL.field}].`,
			),
		);
		expect(nodeOutput(execution, FIX)).toEqual(errors);
	});

	it('puts the other order on the success output, paired, and books it', () => {
		const quotes = nodeOutput(execution, QUOTE);
		expect(quotes.map((quote) => quote.externalReference)).toEqual([ORDERS[acceptedIndex]]);
		expect(nodePairedItems(execution, QUOTE)).toEqual([{ item: acceptedIndex }]);
		const bookings = nodeOutput(execution, BOOK);
		expect(bookings.map((booking) => booking.quoteId)).toEqual([quotes[0].quoteId]);
		expect(nodePairedItems(execution, BOOK)).toEqual([{ item: 0 }]);
	});

	it('sent nothing for the order refused before sending: one request per other order, and a booking', () => {
		expect(requests.map((request) => [request.method, request.path, request.status])).toEqual(
			expect.arrayContaining([
				['POST', '/partner-api/booking-quotes', 400],
				['POST', '/partner-api/booking-quotes', 201],
				['POST', '/partner-api/bookings', 201],
			]),
		);
		expect(requests).toHaveLength(3);
		expect(postsTo(requests, QUOTES).map(referenceOf).sort()).toEqual(
			[ORDERS[0], ORDERS[2]].sort(),
		);
		const bodies = requests.map((request) => request.body as Record<string, unknown>);
		expect(
			bodies.filter((body) => body.pickupLatitude === 123 || body.recipientName === 'Bola Ade'),
		).toEqual([]);
	});
});
