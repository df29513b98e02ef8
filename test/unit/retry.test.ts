import { parseRetryAfter, retryDelayMs } from '../../nodes/PartnerLogistics/shared/retry';

const noJitter = () => 0;

describe('retryDelayMs', () => {
	test('retries only 429 and 503', () => {
		for (const status of [400, 401, 403, 404, 409, 500, 502]) {
			expect(retryDelayMs({ status, attempt: 0, maxRetries: 3 })).toBeNull();
		}
		expect(retryDelayMs({ status: 429, attempt: 0, maxRetries: 3, random: noJitter })).toBe(1000);
		expect(retryDelayMs({ status: 503, attempt: 0, maxRetries: 3, random: noJitter })).toBe(1000);
	});

	test('stops at the bound', () => {
		expect(retryDelayMs({ status: 429, attempt: 3, maxRetries: 3 })).toBeNull();
		expect(retryDelayMs({ status: 429, attempt: 0, maxRetries: 0 })).toBeNull();
	});

	test('backs off exponentially without Retry-After, capped at 30 s', () => {
		const delays = [0, 1, 2, 3, 10].map((attempt) =>
			retryDelayMs({ status: 429, attempt, maxRetries: 20, random: noJitter }),
		);
		expect(delays).toEqual([1000, 2000, 4000, 8000, 30000]);
	});

	test('honours Retry-After in seconds and as an HTTP date', () => {
		expect(
			retryDelayMs({ status: 429, retryAfter: '3', attempt: 0, maxRetries: 3, random: noJitter }),
		).toBe(3000);
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(
			retryDelayMs({
				status: 503,
				retryAfter: 'Sun, 22 Nov 2026 10:00:05 GMT',
				attempt: 0,
				maxRetries: 3,
				now,
				random: noJitter,
			}),
		).toBe(5000);
	});

	test('adds at most 250 ms of jitter', () => {
		expect(
			retryDelayMs({
				status: 429,
				retryAfter: '0',
				attempt: 0,
				maxRetries: 3,
				random: () => 0.999,
			}),
		).toBe(249);
	});

	test('gives up when the API asks for more than a minute', () => {
		expect(retryDelayMs({ status: 429, retryAfter: '61', attempt: 0, maxRetries: 3 })).toBeNull();
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
