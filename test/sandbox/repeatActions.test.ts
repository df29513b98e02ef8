// Repeat-actions mode: an API that guards against repeats by the Idempotency-Key alone, so a
// client that sends one action under two keys does it twice, and a test can count it.
import { adminFetch } from './apiClient';
import { startSandbox } from './index';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

const t = sandboxPerFile();

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
const counts = () => t.sandbox.admin.state().A.counts;

async function booked(): Promise<{ quoteId: string; bookingId: string }> {
	const { quoteId } = (await t.api.post('/partner-api/booking-quotes', route)).body;
	const { bookingId } = (await t.api.post('/partner-api/bookings', { ...route, quoteId })).body;
	return { quoteId, bookingId };
}

const pay = (bookingId: string) =>
	t.api.post(`/partner-api/bookings/${bookingId}/payment`, {
		paymentMethod: 'SAVED_CARD',
		paymentMethodId: t.sandbox.savedCards.enabled,
	});

test('off by default: a second key for a booked quote or a paid booking gets 409', async () => {
	expect(t.sandbox.admin.state().settings.repeatActions).toBe(false);
	const { quoteId, bookingId } = await booked();
	const again = await t.api.post('/partner-api/bookings', { ...route, quoteId });
	expect([again.status, again.body.code]).toEqual([409, 'QUOTE_ALREADY_BOOKED']);
	expect((await pay(bookingId)).status).toBe(201);
	const payAgain = await pay(bookingId);
	expect([payAgain.status, payAgain.body.code]).toEqual([409, 'PAYMENT_IN_PROGRESS']);
	expect(counts()).toMatchObject({ bookings: 1, payments: 1 });
});

test('on: each new key books and pays again, so the records count what was done twice', async () => {
	t.sandbox.admin.setRepeatActions(true);
	const { quoteId, bookingId } = await booked();
	const again = await t.api.post('/partner-api/bookings', { ...route, quoteId });
	expect(again.status).toBe(201);
	expect(again.body.bookingId).not.toBe(bookingId);
	expect([(await pay(bookingId)).status, (await pay(bookingId)).status]).toEqual([201, 201]);
	expect(counts()).toMatchObject({ bookings: 2, payments: 2 });
	// The same key is still a replay: the mode only stops the API's own guard.
	const replay = await t.api.post(
		`/partner-api/bookings/${bookingId}/payment`,
		{ paymentMethod: 'SAVED_CARD', paymentMethodId: t.sandbox.savedCards.enabled },
		{ idempotencyKey: 'pay-once' },
	);
	const replayed = await t.api.post(
		`/partner-api/bookings/${bookingId}/payment`,
		{ paymentMethod: 'SAVED_CARD', paymentMethodId: t.sandbox.savedCards.enabled },
		{ idempotencyKey: 'pay-once' },
	);
	expect([replay.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
	expect(replayed.body).toEqual(replay.body);
	expect(counts()).toMatchObject({ payments: 3 });
});

test('switched over admin REST, checked like the other switches, and reset restores it', async () => {
	const on = await adminFetch(t.sandbox, 'POST', '/__admin/repeat-actions', { enabled: true });
	expect(on.status).toBe(200);
	expect(t.sandbox.admin.state().settings.repeatActions).toBe(true);
	const bad = await adminFetch(t.sandbox, 'POST', '/__admin/repeat-actions', { enabled: 'yes' });
	expect([bad.status, bad.body.field]).toEqual([400, 'enabled']);
	t.sandbox.admin.reset();
	expect(t.sandbox.admin.state().settings.repeatActions).toBe(false);
	const box = await startSandbox({ repeatActions: true });
	try {
		expect(box.admin.state().settings.repeatActions).toBe(true);
	} finally {
		await box.close();
	}
});
