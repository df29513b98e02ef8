import { expectSucceeded, type LoggedRequest, onlyItem, runWithRequests } from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

const suite = loadSuite();

describe('direct booking: hubs -> quote -> booking -> payment -> payment status', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.directBooking));
	});

	it('succeeds', () => expectSucceeded(execution));

	it('quotes a GO_LIGHT delivery to the first listed hub', () => {
		const firstHub = nodeOutput(execution, 'Get hubs')[0];
		const quote = onlyItem(execution, 'Quote delivery to the hub');
		expect(quote).toMatchObject({
			quoteId: expect.stringMatching(/^qt_/),
			status: 'VALID',
			routeForm: 'HOME_TO_HUB',
			serviceType: 'GO_LIGHT',
			dropoffHubId: firstHub.id,
			quotedRoute: expect.objectContaining({ dropoffHubId: firstHub.id }),
		});
	});

	it('books exactly the quoted route and pays it with the saved card', () => {
		const quote = onlyItem(execution, 'Quote delivery to the hub');
		const booking = onlyItem(execution, 'Book the quote');
		expect(booking).toMatchObject({
			bookingId: expect.stringMatching(/^bk_/),
			quoteId: quote.quoteId,
			status: 'AWAITING_PAYMENT',
			routeForm: 'HOME_TO_HUB',
		});
		const payment = onlyItem(execution, 'Pay with saved card');
		expect(payment).toMatchObject({
			reference: expect.stringMatching(/^pay_/),
			status: 'PENDING',
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: suite.sandbox.savedCards.enabled,
			resourceType: 'BOOKING',
			resourceId: booking.bookingId,
		});
	});

	it('reads the settled payment status', () => {
		const payment = onlyItem(execution, 'Pay with saved card');
		expect(onlyItem(execution, 'Get payment status')).toMatchObject({
			reference: payment.reference,
			status: 'SUCCEEDED',
		});
	});

	it('left the booking confirmed and paid in the sandbox', async () => {
		const bookingId = onlyItem(execution, 'Book the quote').bookingId;
		const state = await suite.admin.get<{ A: { bookings: Array<Record<string, unknown>> } }>(
			'/state',
		);
		expect(state.A.bookings.find((b) => b.bookingId === bookingId)).toMatchObject({
			status: 'CONFIRMED',
			paymentStatus: 'PAID',
		});
	});

	it('sent one Idempotency-Key per POST, never the same one twice', async () => {
		const posts = requests.filter((r) => r.method === 'POST');
		expect(posts.map((r) => r.path)).toEqual([
			'/partner-api/booking-quotes',
			'/partner-api/bookings',
			expect.stringMatching(/^\/partner-api\/bookings\/bk_\w+\/payment$/),
		]);
		const keys = posts.map((r) => r.headers['idempotency-key']);
		expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
		expect(new Set(keys).size).toBe(keys.length);
		expect(posts[2].body).toEqual({
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: suite.sandbox.savedCards.enabled,
		});
	});
});
