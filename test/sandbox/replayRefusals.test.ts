// Replay-refusals mode (a handler's 4xx other than 409/429 stored under its Idempotency-Key and
// replayed, as Stripe does) and the refuse rule, which makes the handler refuse on demand.
import { adminFetch, apiClient } from './apiClient';
import { isStoredStatus } from './idempotency';
import { SandboxError, startSandbox } from './index';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

const t = sandboxPerFile();

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
const QUOTES = '/partner-api/booking-quotes';
const BOOKINGS = '/partner-api/bookings';
const counts = () => t.sandbox.admin.state().A.counts;
const replayedOf = (path: string) =>
	t.sandbox.requests({ path }).map((e) => [e.status, e.replayed ?? null, e.fault ?? null]);

async function quoteId(): Promise<string> {
	return (await t.api.post(QUOTES, route)).body.quoteId;
}

describe('default mode: only 2xx are stored', () => {
	test('off at start; a handler 400 frees the key, the corrected retry with it succeeds', async () => {
		expect(t.sandbox.admin.state().settings.replayRefusals).toBe(false);
		const bad = { ...route, pickupLatitude: 95 };
		expect((await t.api.post(QUOTES, bad, { idempotencyKey: 'k' })).status).toBe(400);
		const again = await t.api.post(QUOTES, bad, { idempotencyKey: 'k' });
		expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([400, null]);
		expect(t.sandbox.admin.state().idempotencyKeys).toBe(0);
		expect((await t.api.post(QUOTES, route, { idempotencyKey: 'k' })).status).toBe(201);
		expect(replayedOf(QUOTES)).toEqual([
			[400, null, null],
			[400, null, null],
			[201, null, null],
		]);
	});

	test('a refuse rule answers once, creates nothing, and leaves the key free', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'refuse', method: 'POST', path: QUOTES }] });
		const refused = await t.api.post(QUOTES, route, { idempotencyKey: 'r' });
		expect(refused.status).toBe(400);
		expect(refused.body).toEqual({
			code: 'VALIDATION_ERROR',
			message: 'Refused by the sandbox (injected refuse rule): VALIDATION_ERROR.',
			injected: true,
		});
		expect(counts().quotes).toBe(0);
		const retry = await t.api.post(QUOTES, route, { idempotencyKey: 'r' });
		expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null]);
		expect(replayedOf(QUOTES)).toEqual([
			[400, null, 'refuse'],
			[201, null, null],
		]);
	});
});

describe('replay-refusals mode', () => {
	beforeEach(() => t.sandbox.admin.setReplayRefusals(true));

	test.each([
		['400 VALIDATION_ERROR', QUOTES, { ...route, pickupLatitude: 95 }, 400],
		['404 NOT_FOUND', BOOKINGS, { ...route, quoteId: 'qt_0' }, 404],
	])(
		'a handler %s is replayed byte for byte; another body is 409',
		async (_, path, body, status) => {
			const first = await t.api.post(path, body, { idempotencyKey: 'k' });
			expect(first.status).toBe(status);
			expect(first.headers.get('idempotent-replayed')).toBeNull();

			const replay = await t.api.post(path, body, { idempotencyKey: 'k' });
			expect(replay.status).toBe(status);
			expect(replay.text).toBe(first.text);
			expect(replay.headers.get('idempotent-replayed')).toBe('true');

			const other = await t.api.post(
				path,
				{ ...body, externalReference: 'x' },
				{ idempotencyKey: 'k' },
			);
			expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
			expect(counts()).toMatchObject({ quotes: 0, bookings: 0 });
			expect(replayedOf(path)).toEqual([
				[status, null, null],
				[status, true, null],
				[409, null, null],
			]);
		},
	);

	test('a handler 409 is not stored: the key is free again', async () => {
		const id = await quoteId();
		expect((await t.api.post(BOOKINGS, { ...route, quoteId: id })).status).toBe(201);
		const body = { ...route, quoteId: id };
		const conflict = await t.api.post(BOOKINGS, body, { idempotencyKey: 'k409' });
		expect([conflict.status, conflict.body.code]).toEqual([409, 'QUOTE_ALREADY_BOOKED']);
		const again = await t.api.post(BOOKINGS, body, { idempotencyKey: 'k409' });
		expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([409, null]);
		const keys = t.sandbox.admin.state().idempotencyKeys;
		const other = await t.api.post(QUOTES, route, { idempotencyKey: 'k409' });
		expect(other.status).toBe(201);
		expect(t.sandbox.admin.state().idempotencyKeys).toBe(keys + 1);
	});

	test.each([
		['an injected 429', { status: 429 as const }],
		['an injected 503', { status: 503 as const }],
		['an injected html502', { kind: 'html502' as const }],
	])('%s is not stored: the retry with the same key runs for real', async (_, rule) => {
		t.sandbox.admin.setFaults({ failNext: [{ ...rule, path: QUOTES }] });
		expect((await t.api.post(QUOTES, route, { idempotencyKey: 'k' })).status).toBeGreaterThan(400);
		const retry = await t.api.post(QUOTES, route, { idempotencyKey: 'k' });
		expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null]);
	});

	test('refusals before the key is reserved (rate limit 429, capability 403) are not stored', async () => {
		t.sandbox.admin.setRateLimit(1);
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
		expect((await t.api.post(QUOTES, route, { idempotencyKey: 'k' })).status).toBe(429);
		t.sandbox.admin.setRateLimit(null);
		const readOnly = apiClient(t.sandbox, t.sandbox.keys.readOnly);
		expect((await readOnly.post(QUOTES, route, { idempotencyKey: 'k' })).status).toBe(403);
		const booked = await t.api.post(QUOTES, route, { idempotencyKey: 'k' });
		expect([booked.status, booked.headers.get('idempotent-replayed')]).toEqual([201, null]);
	});
});

describe('isStoredStatus', () => {
	test.each([
		[200, true, true],
		[201, true, true],
		[400, false, true],
		[403, false, true],
		[404, false, true],
		[422, false, true],
		[409, false, false],
		[429, false, false],
		[500, false, false],
		[503, false, false],
	])('%i: stored %s by default, %s in replay-refusals mode', (status, off, on) => {
		expect([isStoredStatus(status, false), isStoredStatus(status, true)]).toEqual([off, on]);
	});
});

describe('refuse rule in replay-refusals mode', () => {
	beforeEach(() => t.sandbox.admin.setReplayRefusals(true));

	test('one of five bookings refused: the same key replays the refusal, a fresh key books', async () => {
		const quotes = await Promise.all([1, 2, 3, 4, 5].map(() => quoteId()));
		t.sandbox.admin.setFaults({
			failNext: [
				{
					kind: 'refuse',
					method: 'POST',
					path: BOOKINGS,
					field: 'dropoffPhone',
					message: 'dropoffPhone is not reachable.',
				},
			],
		});
		const bodies = quotes.map((id) => ({ ...route, quoteId: id }));
		const first = await Promise.all(
			bodies.map((body, i) => t.api.post(BOOKINGS, body, { idempotencyKey: `book-${i}` })),
		);
		const refused = first.map((r, i) => [r.status, i]).filter(([status]) => status !== 201);
		expect(refused).toEqual([[400, expect.any(Number)]]);
		const i = refused[0][1];
		expect(first[i].body).toEqual({
			code: 'VALIDATION_ERROR',
			message: 'dropoffPhone is not reachable.',
			field: 'dropoffPhone',
			injected: true,
		});
		expect(counts().bookings).toBe(4);
		expect(t.sandbox.admin.state().faults.failNext).toEqual([]);

		const sameKey = await t.api.post(BOOKINGS, bodies[i], { idempotencyKey: `book-${i}` });
		expect(sameKey.status).toBe(400);
		expect(sameKey.text).toBe(first[i].text);
		expect(sameKey.headers.get('idempotent-replayed')).toBe('true');
		expect(counts().bookings).toBe(4);

		const freshKey = await t.api.post(BOOKINGS, bodies[i], { idempotencyKey: `book-${i}-2` });
		expect(freshKey.status).toBe(201);
		expect(counts().bookings).toBe(5);
		expect(replayedOf(BOOKINGS).filter(([status]) => status !== 201)).toEqual([
			[400, null, 'refuse'],
			[400, true, null],
		]);
	});

	test.each([
		[403, 'FORBIDDEN'],
		[404, 'NOT_FOUND'],
		[422, 'UNPROCESSABLE_ENTITY'],
	] as const)('status %i with its default code %s is stored and replayed', async (status, code) => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'refuse', status }] });
		const refused = await t.api.post(QUOTES, route, { idempotencyKey: 'k' });
		expect(refused.status).toBe(status);
		expect(refused.body).toEqual({
			code,
			message: `Refused by the sandbox (injected refuse rule): ${code}.`,
			injected: true,
		});
		const replay = await t.api.post(QUOTES, route, { idempotencyKey: 'k' });
		expect([replay.status, replay.text]).toEqual([status, refused.text]);
		expect(replay.headers.get('idempotent-replayed')).toBe('true');
	});

	test('only requests that reach the handler use it; filters and times apply', async () => {
		t.sandbox.admin.setFaults({
			failNext: [
				{
					kind: 'refuse',
					code: 'HUB_CLOSED',
					method: 'GET',
					times: 2,
					path: /^\/partner-api\/hub/,
				},
			],
		});
		expect((await t.api.post(QUOTES, route)).status).toBe(201);
		expect((await apiClient(t.sandbox, 'wrong').get('/partner-api/hubs')).status).toBe(401);
		expect(t.sandbox.admin.state().faults.failNext).toEqual([
			expect.objectContaining({ kind: 'refuse', times: 2 }),
		]);
		for (let n = 0; n < 2; n++) {
			const res = await t.api.get('/partner-api/hubs');
			expect([res.status, res.body.code]).toEqual([400, 'HUB_CLOSED']);
		}
		expect((await t.api.get('/partner-api/hubs')).status).toBe(200);
		expect(replayedOf('/partner-api/hubs')).toEqual([
			[401, null, null],
			[400, null, 'refuse'],
			[400, null, 'refuse'],
			[200, null, null],
		]);
	});

	test('a replay does not use a pending refuse rule', async () => {
		expect((await t.api.post(QUOTES, route, { idempotencyKey: 'k' })).status).toBe(201);
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'refuse', path: QUOTES }] });
		const replay = await t.api.post(QUOTES, route, { idempotencyKey: 'k' });
		expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
		expect(t.sandbox.admin.state().faults.failNext).toHaveLength(1);
	});
});

describe('toggling', () => {
	test('over HTTP: POST /__admin/replay-refusals {enabled}; state shows it; bad input is 400', async () => {
		const on = await adminFetch(t.sandbox, 'POST', '/__admin/replay-refusals', { enabled: true });
		expect([on.status, on.body]).toEqual([200, { ok: true }]);
		const state = await adminFetch(t.sandbox, 'GET', '/__admin/state');
		expect(state.body.settings.replayRefusals).toBe(true);

		const bad = { ...route, pickupLatitude: 95 };
		await t.api.post(QUOTES, bad, { idempotencyKey: 'k' });
		expect(
			(await t.api.post(QUOTES, bad, { idempotencyKey: 'k' })).headers.get('idempotent-replayed'),
		).toBe('true');

		const off = await adminFetch(t.sandbox, 'POST', '/__admin/replay-refusals', { enabled: false });
		expect(off.status).toBe(200);
		expect(t.sandbox.admin.state().settings.replayRefusals).toBe(false);
		// A refusal stored while the mode was on stays until reset().
		expect(
			(await t.api.post(QUOTES, bad, { idempotencyKey: 'k' })).headers.get('idempotent-replayed'),
		).toBe('true');
		await t.api.post(QUOTES, bad, { idempotencyKey: 'k2' });
		expect(
			(await t.api.post(QUOTES, bad, { idempotencyKey: 'k2' })).headers.get('idempotent-replayed'),
		).toBeNull();

		for (const enabled of ['yes', 1, null]) {
			const res = await adminFetch(t.sandbox, 'POST', '/__admin/replay-refusals', { enabled });
			expect([res.status, res.body.code, res.body.field]).toEqual([
				400,
				'VALIDATION_ERROR',
				'enabled',
			]);
		}
	});

	test('reset() restores the start option', async () => {
		t.sandbox.admin.setReplayRefusals(true);
		t.sandbox.admin.reset();
		expect(t.sandbox.admin.state().settings.replayRefusals).toBe(false);

		const box = await startSandbox({ replayRefusals: true });
		try {
			expect(box.admin.state().settings.replayRefusals).toBe(true);
			box.admin.setReplayRefusals(false);
			expect((await adminFetch(box, 'POST', '/__admin/reset')).status).toBe(200);
			expect(box.admin.state().settings.replayRefusals).toBe(true);
		} finally {
			await box.close();
		}
	});

	test('startSandbox refuses a non-boolean replayRefusals', async () => {
		await expect(startSandbox({ replayRefusals: 'yes' as unknown as boolean })).rejects.toThrow(
			SandboxError,
		);
	});
});
