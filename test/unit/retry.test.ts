import {
	decideRetry,
	Retries,
	parseRetryAfter,
} from '../../nodes/PartnerLogistics/pipeline/request/retry';

const noJitter = () => 0;
const budget = { maxRetries: 3, faultRetries: 2 };
const fresh = { busyRetries: 0, faultRetries: 0 };
const status = (code: number, retryAfter?: string) => ({
	kind: 'status' as const,
	status: code,
	retryAfter,
});

describe('decideRetry', () => {
	test('429 and 503 are retried on their own budget; 4xx and 500 never', () => {
		for (const code of [400, 401, 403, 404, 409, 500]) {
			expect(decideRetry(status(code), fresh, budget)).toEqual({
				retry: false,
				reason: 'not-retryable',
			});
		}
		for (const code of [429, 503]) {
			expect(decideRetry(status(code), fresh, budget, 0, noJitter)).toEqual({
				retry: true,
				delayMs: 1000,
				busy: true,
			});
		}
		expect(decideRetry(status(429), { busyRetries: 3, faultRetries: 0 }, budget)).toEqual({
			retry: false,
			reason: 'budget',
		});
	});

	test('connection faults, 502 and 504 back off from 500 ms on the fault budget', () => {
		for (const attempt of [
			{ kind: 'fault' as const, code: 'ECONNRESET' },
			{ kind: 'fault' as const, code: 'ECONNABORTED' },
			status(502),
			status(504),
		]) {
			expect(decideRetry(attempt, fresh, budget, 0, noJitter)).toEqual({
				retry: true,
				delayMs: 500,
				busy: false,
			});
			expect(
				decideRetry(attempt, { busyRetries: 0, faultRetries: 1 }, budget, 0, noJitter),
			).toMatchObject({ delayMs: 1000 });
			expect(decideRetry(attempt, { busyRetries: 0, faultRetries: 2 }, budget)).toEqual({
				retry: false,
				reason: 'budget',
			});
		}
	});

	test('a refused connection or an unknown host is a configuration problem, not retried', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ERR_CANCELED']) {
			expect(decideRetry({ kind: 'fault', code }, fresh, budget)).toEqual({
				retry: false,
				reason: 'not-retryable',
			});
		}
	});

	test('honours Retry-After in seconds and as an HTTP date, plus at most 50 ms of jitter', () => {
		expect(decideRetry(status(429, '3'), fresh, budget, 0, noJitter)).toMatchObject({
			delayMs: 3000,
		});
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(
			decideRetry(status(503, 'Sun, 22 Nov 2026 10:00:05 GMT'), fresh, budget, now, noJitter),
		).toMatchObject({ delayMs: 5000 });
		expect(decideRetry(status(429, '0'), fresh, budget, 0, () => 0.999)).toMatchObject({
			delayMs: 49,
		});
		// Without Retry-After it backs off, with up to 250 ms of jitter.
		expect(decideRetry(status(429), fresh, budget, 0, () => 0.999)).toMatchObject({
			delayMs: 1249,
		});
	});

	test('a Retry-After beyond a minute stops the item and says how long was asked', () => {
		expect(decideRetry(status(429, '120'), fresh, budget)).toEqual({
			retry: false,
			reason: 'retry-after-too-long',
			waitMs: 120_000,
		});
	});

	test('backs off exponentially without Retry-After, capped at 30 s', () => {
		const delays = [0, 1, 2, 3, 10].map(
			(busyRetries) =>
				(
					decideRetry(
						status(429),
						{ busyRetries, faultRetries: 0 },
						{ ...budget, maxRetries: 20 },
						0,
						noJitter,
					) as {
						delayMs: number;
					}
				).delayMs,
		);
		expect(delays).toEqual([1000, 2000, 4000, 8000, 30000]);
	});
});

describe('parseRetryAfter', () => {
	test.each([
		[undefined, undefined],
		['', undefined],
		['soon', undefined],
		['0', 0],
		[' 2 ', 2000],
	])('%p -> %p', (value, expected) => {
		expect(parseRetryAfter(value)).toBe(expected);
	});

	test('a date in the past means now', () => {
		expect(parseRetryAfter('Sun, 22 Nov 2020 10:00:05 GMT', Date.now())).toBe(0);
	});
});

test('a 409 after our own attempt broke off is waited for; any other 409 is a conflict', () => {
	const conflict = status(409);
	expect(decideRetry(conflict, fresh, budget)).toEqual({ retry: false, reason: 'not-retryable' });
	expect(decideRetry(conflict, { busyRetries: 0, faultRetries: 1 }, budget, 0, noJitter)).toEqual({
		retry: true,
		delayMs: 1000,
		busy: false,
	});
});

describe("Retries: one request's retries, counted in one place", () => {
	test('429 and 503 are retried as the API asks, a lost connection with a back-off', () => {
		const retries = new Retries(budget);
		expect(retries.decide(status(429, '0'))).toMatchObject({ retry: true, busy: true });
		expect(retries.decide(status(503, '0'))).toMatchObject({ retry: true, busy: true });
		expect(retries.decide({ kind: 'fault', code: 'ECONNRESET' })).toMatchObject({
			retry: true,
			busy: false,
		});
		expect(retries.count).toBe(3);
	});

	test('after a broken connection, a 409 is that attempt still running: waited for', () => {
		const retries = new Retries(budget);
		expect(retries.decide(status(409)).retry).toBe(false);
		retries.decide({ kind: 'fault', code: 'ECONNRESET' });
		expect(retries.decide(status(409)).retry).toBe(true);
	});

	test('stops when the budget is spent, and counts only the retries made', () => {
		const retries = new Retries({ maxRetries: 1, faultRetries: 0 });
		expect(retries.decide(status(429, '0')).retry).toBe(true);
		expect(retries.decide(status(429, '0'))).toEqual({ retry: false, reason: 'budget' });
		expect(retries.decide({ kind: 'fault', code: 'ECONNRESET' })).toEqual({
			retry: false,
			reason: 'budget',
		});
		expect(retries.count).toBe(1);
	});
});
