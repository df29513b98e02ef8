// The failNext rule kinds beyond plain error statuses, each over real HTTP: redirect to another
// origin, HTML and empty 2xx, a proxy's HTML 502, reset after commit, slow answers, 429 storms.
import { adminFetch, apiClient } from './apiClient';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

const t = sandboxPerFile();

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
const QUOTES = '/partner-api/booking-quotes';
const quoteCount = () => t.sandbox.admin.state().A.counts.quotes;
const faultsOf = (path: string | RegExp) =>
	t.sandbox.requests({ path }).map((e) => [e.status, e.fault ?? null]);

async function newBooking(): Promise<string> {
	const quote = await t.api.post(QUOTES, route);
	const booking = await t.api.post('/partner-api/bookings', {
		...route,
		quoteId: quote.body.quoteId,
	});
	expect(booking.status).toBe(201);
	return booking.body.bookingId;
}

describe('redirect', () => {
	test('302 to the redirect target on another origin, same path and query; nothing committed', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'redirect', method: 'POST', path: QUOTES }] });
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);

		const res = await t.api.post(QUOTES, route, { redirect: 'manual' });
		expect(res.status).toBe(302);
		const location = res.headers.get('location') ?? '';
		expect(new URL(location).origin).toBe(t.sandbox.redirectTarget.origin);
		expect(t.sandbox.redirectTarget.origin).not.toBe(t.sandbox.origin);
		expect(location).toBe(`${t.sandbox.redirectTarget.origin}/api/v1${QUOTES}`);
		expect(quoteCount()).toBe(0);

		expect((await t.api.post(QUOTES, route, { redirect: 'manual' })).status).toBe(201);
		expect(faultsOf(QUOTES)).toEqual([
			[302, 'redirect'],
			[201, null],
		]);
	});

	test('307: the target records method, path, headers, body and whether the API key arrived', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'redirect', status: 307, times: 2 }] });
		const res = await fetch(`${t.sandbox.url}/partner-api/hubs?limit=2`, {
			redirect: 'manual',
			headers: { 'X-SVC-API-Key': t.sandbox.keys.full },
		});
		expect(res.status).toBe(307);
		const location = res.headers.get('location') ?? '';
		expect(location).toBe(`${t.sandbox.redirectTarget.origin}/api/v1/partner-api/hubs?limit=2`);

		// A careless client follows with the key, a careful one without it.
		const leaked = await fetch(location, {
			method: 'POST',
			headers: { 'X-SVC-API-Key': t.sandbox.keys.full, 'content-type': 'application/json' },
			body: JSON.stringify({ serviceType: 'CLICK' }),
		});
		expect(leaked.status).toBe(200);
		expect(await leaked.json()).toMatchObject({ redirectTarget: true, apiKeyReceived: true });
		await fetch(location);

		const seen = t.sandbox.redirectTarget.requests();
		expect(seen).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/api/v1/partner-api/hubs',
				query: { limit: '2' },
				apiKeyReceived: true,
				body: { serviceType: 'CLICK' },
			}),
			expect.objectContaining({ method: 'GET', apiKeyReceived: false, body: undefined }),
		]);
		expect(seen[0].headers['x-svc-api-key']).toBe(t.sandbox.keys.full);

		const overHttp = await adminFetch(t.sandbox, 'GET', '/__admin/redirect-target/log');
		expect(overHttp.body).toEqual(JSON.parse(JSON.stringify(seen)));
		await adminFetch(t.sandbox, 'DELETE', '/__admin/redirect-target/log');
		expect(t.sandbox.redirectTarget.requests()).toEqual([]);
		// The target's own requests are not partner requests: only the one redirected GET is logged.
		expect(faultsOf('/partner-api/hubs')).toEqual([[307, 'redirect']]);
	});

	test('reset() empties the redirect target log', async () => {
		await fetch(`${t.sandbox.redirectTarget.origin}/anything`);
		expect(t.sandbox.redirectTarget.requests()).toHaveLength(1);
		t.sandbox.admin.reset();
		expect(t.sandbox.redirectTarget.requests()).toEqual([]);
	});
});

describe('html200, empty200, html502', () => {
	test('html200: 200 text/html with a <title>, before auth; nothing committed', async () => {
		t.sandbox.admin.setFaults({
			failNext: [
				{ kind: 'html200', path: QUOTES },
				{ kind: 'html200', path: QUOTES, title: 'Maintenance & upgrades' },
			],
		});
		const first = await apiClient(t.sandbox, null).post(QUOTES, route);
		expect(first.status).toBe(200);
		expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(first.text).toMatch(/^<!DOCTYPE html>/);
		expect(first.text).toContain('<title>Partner Logistics | Sign in</title>');
		const second = await t.api.post(QUOTES, route);
		expect(second.text).toContain('<title>Maintenance &#38; upgrades</title>');
		expect(quoteCount()).toBe(0);
		expect(faultsOf(QUOTES)).toEqual([
			[200, 'html200'],
			[200, 'html200'],
		]);
	});

	test('empty200: 200 with an empty body; nothing committed', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'empty200', method: 'POST' }] });
		const res = await t.api.post(QUOTES, route);
		expect([res.status, res.text, res.headers.get('content-length')]).toEqual([200, '', '0']);
		expect(quoteCount()).toBe(0);
		expect(faultsOf(QUOTES)).toEqual([[200, 'empty200']]);
	});

	test('html502: a proxy error page with a <title>; the retry with the same key runs for real', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'html502', method: 'POST', path: QUOTES }] });
		const failed = await t.api.post(QUOTES, route, { idempotencyKey: 'k-502' });
		expect(failed.status).toBe(502);
		expect(failed.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(failed.text).toContain('<title>502 Bad Gateway</title>');
		expect(failed.text).toContain('nginx');
		expect(quoteCount()).toBe(0);

		const retry = await t.api.post(QUOTES, route, { idempotencyKey: 'k-502' });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBeNull();
		expect(faultsOf(QUOTES)).toEqual([
			[502, 'html502'],
			[201, null],
		]);
	});
});

describe('resetAfterCommit', () => {
	const PAYMENT = /^\/partner-api\/bookings\/[^/]+\/payment$/;
	const pay = { paymentMethod: 'SAVED_CARD' };

	test('the payment is recorded, the socket reset; other POSTs pass; the retry gets the replay', async () => {
		const bookingId = await newBooking();
		const payPath = `/partner-api/bookings/${bookingId}/payment`;
		const body = { ...pay, paymentMethodId: t.sandbox.savedCards.enabled };
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'resetAfterCommit', path: PAYMENT }] });

		expect((await t.api.post(QUOTES, route)).status).toBe(201);
		await expect(t.api.post(payPath, body, { idempotencyKey: 'pay-1' })).rejects.toThrow(
			'fetch failed',
		);
		expect(t.sandbox.admin.state().A.payments).toHaveLength(1);

		const retry = await t.api.post(payPath, body, { idempotencyKey: 'pay-1' });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect(t.sandbox.admin.state().A.payments).toHaveLength(1);
		expect(
			t.sandbox.requests({ path: PAYMENT }).map((e) => [e.status, e.fault, e.replayed]),
		).toEqual([
			[0, 'resetAfterCommit', undefined],
			[201, undefined, true],
		]);
	});

	test('only committed 2xx answers use the rule: a refused payment is answered', async () => {
		const bookingId = await newBooking();
		const payPath = `/partner-api/bookings/${bookingId}/payment`;
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'resetAfterCommit', path: PAYMENT }] });
		const refused = await t.api.post(payPath, { ...pay, paymentMethodId: 'pm_nope' });
		expect(refused.status).toBe(400);
		await expect(
			t.api.post(payPath, { ...pay, paymentMethodId: t.sandbox.savedCards.enabled }),
		).rejects.toThrow();
		expect(faultsOf(PAYMENT)).toEqual([
			[400, null],
			[0, 'resetAfterCommit'],
		]);
	});

	test('the unfiltered dropAfterCommit still resets the next successful POST', async () => {
		t.sandbox.admin.setFaults({ dropAfterCommit: 1 });
		await expect(t.api.post(QUOTES, route)).rejects.toThrow();
		expect(quoteCount()).toBe(1);
		expect(faultsOf(QUOTES)).toEqual([[0, 'dropAfterCommit']]);
	});
});

describe('slow', () => {
	test('holds beyond a client timeout, then commits and answers; a retry meanwhile is 409 in progress', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'slow', delayMs: 700, path: QUOTES }] });
		const timedOut = t.api.post(QUOTES, route, {
			idempotencyKey: 'slow-1',
			signal: AbortSignal.timeout(150),
		});
		await expect(timedOut).rejects.toThrow(/aborted|timeout/i);
		expect(quoteCount()).toBe(0);

		const during = await t.api.post(QUOTES, route, { idempotencyKey: 'slow-1' });
		expect([during.status, during.body.code]).toEqual([409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS']);
		// Only the matching path is slowed.
		const started = Date.now();
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
		expect(Date.now() - started).toBeLessThan(300);

		await new Promise((r) => setTimeout(r, 700));
		expect(quoteCount()).toBe(1);
		const after = await t.api.post(QUOTES, route, { idempotencyKey: 'slow-1' });
		expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([201, 'true']);

		// Arrival order: the slow request first, logged with the answer it could not deliver.
		const log = t.sandbox.requests({ path: QUOTES });
		expect(log.map((e) => [e.status, e.fault, e.clientClosed])).toEqual([
			[201, 'slow', true],
			[409, undefined, undefined],
			[201, undefined, undefined],
		]);
	});

	test('a client that waits gets the normal answer after the hold', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'slow', delayMs: 250, method: 'POST' }] });
		const started = Date.now();
		const res = await t.api.post(QUOTES, route);
		expect(Date.now() - started).toBeGreaterThanOrEqual(240);
		expect(res.status).toBe(201);
		expect(res.body.quoteId).toMatch(/^qt_/);
	});
});

describe('429 storm', () => {
	test('N consecutive 429s with a long Retry-After on one path only, then the API answers', async () => {
		t.sandbox.admin.setFaults({
			failNext: [{ status: 429, times: 3, retryAfterSeconds: 120, method: 'POST', path: QUOTES }],
		});
		for (let i = 0; i < 3; i++) {
			const res = await t.api.post(QUOTES, route, { idempotencyKey: 'storm' });
			expect(res.status).toBe(429);
			expect(res.headers.get('retry-after')).toBe('120');
			expect(res.body).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 120 });
			expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
		}
		expect((await t.api.post(QUOTES, route, { idempotencyKey: 'storm' })).status).toBe(201);
		expect(faultsOf(QUOTES)).toEqual([
			[429, 'status'],
			[429, 'status'],
			[429, 'status'],
			[201, null],
		]);
	});
});

describe('rules over HTTP', () => {
	test('set through /__admin/faults (RegExp paths as strings); pending rules show in state', async () => {
		const set = await adminFetch(t.sandbox, 'POST', '/__admin/faults', {
			failNext: [
				{ kind: 'html502', times: 2, path: String(/^\/partner-api\/hub/) },
				{ kind: 'slow', delayMs: 10, method: 'GET' },
			],
		});
		expect(set.status).toBe(200);
		expect((await t.api.get('/partner-api/hubs')).status).toBe(502);
		const { failNext } = (await adminFetch(t.sandbox, 'GET', '/__admin/state')).body.faults;
		expect(failNext).toEqual([
			{ kind: 'html502', times: 1, path: '/^\\/partner-api\\/hub/' },
			{ kind: 'slow', delayMs: 10, method: 'GET', times: 1 },
		]);
	});

	test.each([
		[{ kind: 'teapot' }, 'failNext.kind'],
		[{ kind: 'slow' }, 'failNext.delayMs'],
		[{ kind: 'redirect', status: 200 }, 'failNext.status'],
		[{ status: 429, retryAfterSeconds: 1.5 }, 'failNext.retryAfterSeconds'],
		[{ status: 418 }, 'failNext.status'],
		[{ kind: 'html200', times: 0 }, 'failNext.times'],
		[{ kind: 'refuse', status: 409 }, 'failNext.status'],
		[{ kind: 'refuse', code: '' }, 'failNext.code'],
		[{ kind: 'refuse', message: 5 }, 'failNext.message'],
		[{ kind: 'refuse', field: null }, 'failNext.field'],
	])('refuses %j (400 naming %s)', async (rule, field) => {
		const res = await adminFetch(t.sandbox, 'POST', '/__admin/faults', { failNext: [rule] });
		expect([res.status, res.body.field]).toEqual([400, field]);
	});
});
