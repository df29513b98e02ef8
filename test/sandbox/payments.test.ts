import { type ApiClient, apiClient } from './apiClient';
import { type Sandbox, startSandbox } from './index';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

let sandbox: Sandbox;
let api: ApiClient;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = apiClient(sandbox);
});
afterAll(() => sandbox.close());

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };

async function newBooking() {
	const quote = (await api.post('/partner-api/booking-quotes', route)).body;
	const booking = await api.post('/partner-api/bookings', { ...route, quoteId: quote.quoteId });
	expect(booking.status).toBe(201);
	return booking.body;
}

const payPath = (bookingId: string) => `/partner-api/bookings/${bookingId}/payment`;

describe('booking payment', () => {
	test('a saved card enabled for API charges starts a PENDING payment; settle confirms the booking', async () => {
		const booking = await newBooking();
		const res = await api.post(payPath(booking.bookingId), {
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({
			paymentReference: expect.stringMatching(/^pay_/),
			status: 'PENDING',
			amount: booking.price.amount,
			currency: booking.price.currency,
			resourceType: 'BOOKING',
			resourceId: booking.bookingId,
		});
		const reference = res.body.paymentReference;

		const status = await api.get(`/partner-api/payments/${reference}`);
		expect(status.status).toBe(200);
		expect(status.body).toMatchObject({ reference, status: 'PENDING' });

		expect(sandbox.admin.settlePayment(reference).status).toBe('SUCCEEDED');
		expect((await api.get(`/partner-api/payments/${reference}`)).body.status).toBe('SUCCEEDED');
		const stored = sandbox.admin.state().A.bookings.find((b) => b.bookingId === booking.bookingId);
		expect(stored).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID' });

		const again = await api.post(payPath(booking.bookingId), {
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(again.status).toBe(409);
		expect(again.body.code).toBe('ALREADY_PAID');
	});

	test('a second payment while one is pending is 409; after a failure a new one may start', async () => {
		const booking = await newBooking();
		const body = { paymentMethod: 'SAVED_CARD', paymentMethodId: sandbox.savedCards.enabled };
		const first = await api.post(payPath(booking.bookingId), body);
		const second = await api.post(payPath(booking.bookingId), body);
		expect(second.status).toBe(409);
		expect(second.body.code).toBe('PAYMENT_IN_PROGRESS');
		expect(sandbox.admin.failPayment(first.body.paymentReference).status).toBe('FAILED');
		expect(() => sandbox.admin.settlePayment(first.body.paymentReference)).toThrow(
			/already FAILED/,
		);
		const retry = await api.post(payPath(booking.bookingId), body);
		expect(retry.status).toBe(201);
	});

	test('an unknown payment reference is 404', async () => {
		expect((await api.get('/partner-api/payments/pay_000')).status).toBe(404);
	});

	test.each([
		[
			'CREDIT is refused for booking invoices',
			{ paymentMethod: 'CREDIT' },
			'paymentMethod',
			'CREDIT_NOT_ALLOWED',
		],
		[
			'paymentMethod is required',
			{ paymentMethodId: 'pm_card_a_api' },
			'paymentMethod',
			'VALIDATION_ERROR',
		],
		[
			'paymentMethodId is required with SAVED_CARD',
			{ paymentMethod: 'SAVED_CARD' },
			'paymentMethodId',
			'VALIDATION_ERROR',
		],
		[
			'an unknown card',
			{ paymentMethod: 'SAVED_CARD', paymentMethodId: 'pm_nope' },
			'paymentMethodId',
			'PAYMENT_METHOD_NOT_FOUND',
		],
		[
			'a card not enabled for API charges',
			{ paymentMethod: 'SAVED_CARD', paymentMethodId: 'pm_card_a_dashboard_only' },
			'paymentMethodId',
			'PAYMENT_METHOD_NOT_ENABLED',
		],
		[
			'paymentStage is haulage only',
			{ paymentMethod: 'SAVED_CARD', paymentMethodId: 'pm_card_a_api', paymentStage: 'UPFRONT' },
			'paymentStage',
			'VALIDATION_ERROR',
		],
	])('%s (400)', async (_name, body, field, code) => {
		const booking = await newBooking();
		const res = await api.post(payPath(booking.bookingId), body);
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code, field });
	});
});

describe('forbidden payment fields (400 naming the field), on every payment route', () => {
	const card = { paymentMethod: 'SAVED_CARD', paymentMethodId: 'pm_card_a_api' };
	const cases: Array<[string, Record<string, unknown>, string]> = [
		['an amount', { amount: 100 }, 'amount'],
		['a currency', { currency: 'NGN' }, 'currency'],
		['card details', { card: { number: '4242424242424242' } }, 'card'],
		['a card number (snake case)', { card_number: '4242424242424242' }, 'card_number'],
		['a CVC', { cvc: '123' }, 'cvc'],
		['an expiry', { expiry: '12/30' }, 'expiry'],
		['a payment proof', { paymentProof: 'https://files/receipt.png' }, 'paymentProof'],
		['a proof', { proof: 'base64...' }, 'proof'],
		['a provider reference', { providerReference: 'ch_123' }, 'providerReference'],
		['a status', { status: 'PAID' }, 'status'],
		['a payment status', { paymentStatus: 'SUCCEEDED' }, 'paymentStatus'],
		['a nested amount', { metadata: { order: { amount: 5 } } }, 'metadata.order.amount'],
		['a card number inside an array', { extras: [{ cardNumber: '4242' }] }, 'extras[0].cardNumber'],
	];

	test.each(cases)('booking payment with %s', async (_name, extra, field) => {
		const booking = await newBooking();
		const res = await api.post(payPath(booking.bookingId), { ...card, ...extra });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'FORBIDDEN_PAYMENT_FIELD', field });
		expect(res.body.message).toContain(field);
		expect(sandbox.admin.state().A.payments.some((p) => p.resourceId === booking.bookingId)).toBe(
			false,
		);
	});

	test('GO_BULK and HAUL payment and credit-accept refuse them too', async () => {
		const qr = (await api.post('/partner-api/quote-requests', {})).body.quoteRequestId;
		const hq = (await api.post('/partner-api/haulage/quotations', {})).body.quotationId;
		sandbox.admin.issueQuoteRequestQuotation(qr, { creditTerms: true });
		sandbox.admin.issueHaulageQuotation(hq, { creditTerms: true });
		const paths = [
			`/partner-api/quote-requests/${qr}/payment`,
			`/partner-api/quote-requests/${qr}/credit-accept`,
			`/partner-api/haulage/quotations/${hq}/payment`,
			`/partner-api/haulage/quotations/${hq}/credit-accept`,
		];
		for (const path of paths) {
			const res = await api.post(path, { ...card, amount: 1 });
			expect(res.status).toBe(400);
			expect(res.body).toMatchObject({ code: 'FORBIDDEN_PAYMENT_FIELD', field: 'amount' });
		}
	});
});
