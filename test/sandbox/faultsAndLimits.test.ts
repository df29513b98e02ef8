import { apiClient } from './apiClient';
import { type Sandbox, startSandbox } from './index';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

const t = sandboxPerFile({ seed: 42 });

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };

describe('failNext', () => {
	test('the next 2 POSTs to /bookings get 503 with Retry-After: 0; other calls are untouched', async () => {
		t.sandbox.admin.setFaults({
			failNext: [
				{
					status: 503,
					times: 2,
					retryAfterSeconds: 0,
					method: 'POST',
					path: '/partner-api/bookings',
				},
			],
		});
		const quote = await t.api.post('/partner-api/booking-quotes', route);
		expect(quote.status).toBe(201);
		const body = { ...route, quoteId: quote.body.quoteId };
		for (let i = 0; i < 2; i++) {
			const res = await t.api.post('/partner-api/bookings', body, { idempotencyKey: 'b' });
			expect(res.status).toBe(503);
			expect(res.headers.get('retry-after')).toBe('0');
			expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
		}
		expect(t.sandbox.admin.state().A.counts.bookings).toBe(0);
		const third = await t.api.post('/partner-api/bookings', body, { idempotencyKey: 'b' });
		expect(third.status).toBe(201);
		expect(t.sandbox.requests({ path: '/partner-api/bookings' }).map((e) => e.status)).toEqual([
			503, 503, 201,
		]);
	});

	test('statuses 500, 502 and 429 (429 always carries Retry-After); a RegExp path', async () => {
		t.sandbox.admin.setFaults({
			failNext: [
				{ status: 500, path: /\/hubs$/ },
				{ status: 502, path: /\/hubs$/ },
				{ status: 429, path: /\/hubs$/ },
			],
		});
		const statuses = [];
		for (let i = 0; i < 4; i++) {
			const res = await t.api.get('/partner-api/hubs');
			statuses.push(res.status);
			if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
		}
		expect(statuses).toEqual([500, 502, 429, 200]);
	});

	test('faults come before auth: even a request without key is faulted', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ status: 503 }] });
		expect((await apiClient(t.sandbox, null).get('/partner-api/hubs')).status).toBe(503);
		expect((await apiClient(t.sandbox, null).get('/partner-api/hubs')).status).toBe(401);
	});
});

describe('random fault rates', () => {
	test('rate500 = 1 fails everything, rate503 = 0 nothing; the same seed gives the same sequence', async () => {
		t.sandbox.admin.setFaults({ rate500: 1 });
		expect((await t.api.get('/partner-api/hubs')).status).toBe(500);

		const run = async (box: Sandbox) => {
			box.admin.setFaults({ rate503: 0.5 });
			const out = [];
			for (let i = 0; i < 12; i++) out.push((await apiClient(box).get('/partner-api/hubs')).status);
			return out;
		};
		const [x, y] = await Promise.all([startSandbox({ seed: 7 }), startSandbox({ seed: 7 })]);
		try {
			const [a, b] = await Promise.all([run(x), run(y)]);
			expect(a).toEqual(b);
			expect(a).toContain(503);
			expect(a).toContain(200);
		} finally {
			await Promise.all([x.close(), y.close()]);
		}
	});
});

describe('dropAfterCommit', () => {
	test('the booking is committed, the socket is closed without answer; the retry replays it', async () => {
		const quote = await t.api.post('/partner-api/booking-quotes', route);
		const body = { ...route, quoteId: quote.body.quoteId };
		t.sandbox.admin.setFaults({ dropAfterCommit: 1 });
		await expect(
			t.api.post('/partner-api/bookings', body, { idempotencyKey: 'drop-me' }),
		).rejects.toThrow();
		expect(t.sandbox.admin.state().A.counts.bookings).toBe(1);

		const retry = await t.api.post('/partner-api/bookings', body, { idempotencyKey: 'drop-me' });
		expect(retry.status).toBe(201);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect(t.sandbox.admin.state().A.counts.bookings).toBe(1);
		expect(
			t.sandbox
				.requests({ path: '/partner-api/bookings' })
				.map((e) => [e.status, e.replayed ?? false]),
		).toEqual([
			[0, false],
			[201, true],
		]);
	});

	test('only successful POSTs count: a 400 is answered and the drop waits for the next success', async () => {
		t.sandbox.admin.setFaults({ dropAfterCommit: 1 });
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
		expect((await t.api.post('/partner-api/booking-quotes', {})).status).toBe(400);
		await expect(t.api.post('/partner-api/booking-quotes', route)).rejects.toThrow();
		expect((await t.api.post('/partner-api/booking-quotes', route)).status).toBe(201);
		expect(t.sandbox.admin.state().A.counts.quotes).toBe(2);
	});
});

describe('latency', () => {
	test('holds each request before the API sees it and each answer before it leaves; admin calls are not held', async () => {
		t.sandbox.admin.setLatency(100);
		t.sandbox.clearLog();
		const sent = Date.now();
		const response = await t.api.get('/partner-api/hubs');
		const answered = Date.now();
		expect(response.status).toBe(200);
		const [entry] = t.sandbox.requests();
		expect(entry.at - sent).toBeGreaterThanOrEqual(95); // logged as it reached the API
		expect(answered - entry.at).toBeGreaterThanOrEqual(95);
		const admin = Date.now();
		const state = await fetch(`${t.sandbox.origin}/__admin/state`, {
			headers: { 'x-sandbox-admin-token': t.sandbox.adminToken },
		});
		expect(state.status).toBe(200);
		expect(Date.now() - admin).toBeLessThan(90);
	});
});

describe('delayMs', () => {
	test('delays each partner request', async () => {
		t.sandbox.admin.setFaults({ delayMs: 80 });
		const started = Date.now();
		await t.api.get('/partner-api/hubs');
		expect(Date.now() - started).toBeGreaterThanOrEqual(75);
	});
});

describe('rate limit', () => {
	test('N requests per rolling second per key, then 429 RATE_LIMITED with Retry-After', async () => {
		t.sandbox.admin.setRateLimit(3);
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await t.api.get('/partner-api/hubs')).status);
		expect(statuses).toEqual([200, 200, 200]);
		const limited = await t.api.get('/partner-api/hubs');
		expect(limited.status).toBe(429);
		expect(limited.body.code).toBe('RATE_LIMITED');
		expect(limited.headers.get('retry-after')).toBe('1');
		expect(limited.body.retryAfterMs).toBeGreaterThan(0);
		expect(limited.body.retryAfterMs).toBeLessThanOrEqual(1000);

		// Another key has its own window.
		expect(
			(await apiClient(t.sandbox, t.sandbox.keys.noSupport).get('/partner-api/hubs')).status,
		).toBe(200);
		// The window frees after the reported wait.
		await new Promise((r) => setTimeout(r, limited.body.retryAfterMs + 20));
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
	});

	test('with rate headers, every answer says the limit, what remains and when a slot frees', async () => {
		t.sandbox.admin.setRateLimit(2, { headers: true });
		const first = await t.api.get('/partner-api/hubs');
		const second = await t.api.get('/partner-api/hubs');
		const refused = await t.api.get('/partner-api/hubs');
		const header = (response: typeof first, name: string) =>
			response.headers.get(`x-ratelimit-${name}`);
		expect([first, second, refused].map((response) => response.status)).toEqual([200, 200, 429]);
		expect([first, second, refused].map((response) => header(response, 'limit'))).toEqual([
			'2',
			'2',
			'2',
		]);
		expect([first, second, refused].map((response) => header(response, 'remaining'))).toEqual([
			'1',
			'0',
			'0',
		]);
		expect(header(second, 'reset')).toBe('1');
		// Without them (the default), only a 429 says the limit.
		await new Promise((r) => setTimeout(r, 1050));
		t.sandbox.admin.setRateLimit(2);
		const plain = await t.api.get('/partner-api/hubs');
		expect(header(plain, 'limit')).toBeNull();
		expect(header(plain, 'remaining')).toBeNull();
	});

	test('set at start; null lifts it', async () => {
		const limited = await startSandbox({ rateLimitPerSecond: 1 });
		try {
			const c = apiClient(limited);
			expect((await c.get('/partner-api/hubs')).status).toBe(200);
			expect((await c.get('/partner-api/hubs')).status).toBe(429);
			limited.admin.setRateLimit(null);
			expect((await c.get('/partner-api/hubs')).status).toBe(200);
		} finally {
			await limited.close();
		}
	});
});
