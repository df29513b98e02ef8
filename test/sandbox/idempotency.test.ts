import { apiClient } from './apiClient';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

const t = sandboxPerFile();

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
const counts = () => t.sandbox.admin.state().A.counts;

async function quoteId() {
	return (await t.api.post('/partner-api/booking-quotes', route)).body.quoteId as string;
}

describe('Idempotency-Key', () => {
	test('required on every POST (400), never on GET', async () => {
		const res = await t.api.post('/partner-api/booking-quotes', route, { idempotencyKey: null });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REQUIRED', field: 'Idempotency-Key' });
		expect(counts().quotes).toBe(0);
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
	});

	test('same key, same request: the first response replayed, nothing created', async () => {
		const body = { ...route, quoteId: await quoteId() };
		const first = await t.api.post('/partner-api/bookings', body, { idempotencyKey: 'book-1' });
		expect(first.status).toBe(201);
		expect(first.headers.get('idempotent-replayed')).toBeNull();

		// Same body with its keys in another order is the same request.
		const reordered = Object.fromEntries(Object.entries(body).reverse());
		const replay = await t.api.post('/partner-api/bookings', reordered, {
			idempotencyKey: 'book-1',
		});
		expect(replay.status).toBe(201);
		expect(replay.text).toBe(first.text);
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
		expect(counts().bookings).toBe(1);

		const log = t.sandbox.requests({ method: 'POST', path: '/partner-api/bookings' });
		expect(log.map((e) => [e.status, e.replayed])).toEqual([
			[201, undefined],
			[201, true],
		]);
	});

	test('same key, different body / path / method-path: 409 IDEMPOTENCY_KEY_REUSED', async () => {
		const id = await quoteId();
		await t.api.post('/partner-api/bookings', { ...route, quoteId: id }, { idempotencyKey: 'k' });
		const otherBody = await t.api.post(
			'/partner-api/bookings',
			{ ...route, quoteId: id, externalReference: 'x' },
			{ idempotencyKey: 'k' },
		);
		expect([otherBody.status, otherBody.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
		const otherPath = await t.api.post('/partner-api/booking-quotes', route, {
			idempotencyKey: 'k',
		});
		expect([otherPath.status, otherPath.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
		expect(counts().bookings).toBe(1);
	});

	test("a booking reusing the quote's key is refused", async () => {
		const quote = await t.api.post('/partner-api/booking-quotes', route, {
			idempotencyKey: 'same',
		});
		const booking = await t.api.post(
			'/partner-api/bookings',
			{ ...route, quoteId: quote.body.quoteId },
			{ idempotencyKey: 'same' },
		);
		expect([booking.status, booking.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
	});

	test('a 4xx is not stored: the corrected retry with the same key succeeds', async () => {
		const bad = await t.api.post(
			'/partner-api/booking-quotes',
			{ ...route, pickupLatitude: 95 },
			{ idempotencyKey: 'fix-me' },
		);
		expect(bad.status).toBe(400);
		const fixed = await t.api.post('/partner-api/booking-quotes', route, {
			idempotencyKey: 'fix-me',
		});
		expect(fixed.status).toBe(201);
		expect(counts().quotes).toBe(1);
	});

	test('a 5xx is not stored either', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ status: 503, path: '/partner-api/booking-quotes' }] });
		expect(
			(await t.api.post('/partner-api/booking-quotes', route, { idempotencyKey: 'r' })).status,
		).toBe(503);
		const retry = await t.api.post('/partner-api/booking-quotes', route, { idempotencyKey: 'r' });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBeNull();
	});

	test('keys are scoped per organization', async () => {
		const a = await t.api.post('/partner-api/booking-quotes', route, { idempotencyKey: 'shared' });
		const b = await apiClient(t.sandbox, t.sandbox.keys.otherOrg).post(
			'/partner-api/booking-quotes',
			route,
			{
				idempotencyKey: 'shared',
			},
		);
		expect(b.status).toBe(201);
		expect(b.body.quoteId).not.toBe(a.body.quoteId);
		expect(t.sandbox.admin.state().B.counts.quotes).toBe(1);
	});

	test('a concurrent duplicate while the first is in flight: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS', async () => {
		// Wide margins both ways, so a loaded machine cannot reorder them: the first has 300 ms to
		// arrive and reserve its key, the second 1.7 s to arrive while the first is held.
		t.sandbox.admin.setFaults({ delayMs: 2000 });
		const first = t.api.post('/partner-api/booking-quotes', route, { idempotencyKey: 'slow' });
		await new Promise((r) => setTimeout(r, 300));
		const second = await t.api.post('/partner-api/booking-quotes', route, {
			idempotencyKey: 'slow',
		});
		expect([second.status, second.body.code]).toEqual([409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS']);
		expect((await first).status).toBe(201);
		t.sandbox.admin.setFaults({});
		const after = await t.api.post('/partner-api/booking-quotes', route, {
			idempotencyKey: 'slow',
		});
		expect(after.headers.get('idempotent-replayed')).toBe('true');
		expect(counts().quotes).toBe(1);
	});

	test('payments: a replayed payment creates no second payment', async () => {
		const booking = (
			await t.api.post('/partner-api/bookings', { ...route, quoteId: await quoteId() })
		).body;
		const body = { paymentMethod: 'SAVED_CARD', paymentMethodId: t.sandbox.savedCards.enabled };
		const path = `/partner-api/bookings/${booking.bookingId}/payment`;
		const first = await t.api.post(path, body, { idempotencyKey: 'pay-1' });
		const replay = await t.api.post(path, body, { idempotencyKey: 'pay-1' });
		expect(replay.body.paymentReference).toBe(first.body.paymentReference);
		expect(counts().payments).toBe(1);
	});
});
