import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { runNode } from '../harness';
import { clickRoute, credentialsFor, runAgainst } from './helpers';

// The request pipeline's rules under the faults a real API and network produce, through n8n's
// engine against the sandbox over HTTP: what reached the sandbox, and what did not.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());
afterEach(() => {
	sandbox.admin.setFaults({});
	sandbox.admin.setRateLimit(null);
	sandbox.redirectTarget.clear();
});

const quoteParameters = { resource: 'quote', operation: 'create', ...clickRoute };
const keyOf = (request: { headers: Record<string, string> }) => request.headers['idempotency-key'];
const QUOTES = '/partner-api/booking-quotes';

async function booking(): Promise<IDataObject> {
	const quote = (await runAgainst(sandbox, quoteParameters)).items[0];
	return (
		await runAgainst(sandbox, { resource: 'booking', operation: 'create' }, { input: [quote] })
	).items[0];
}

describe('transport safety', () => {
	test.each([302, 307] as const)(
		'a %i to another origin is refused: the API key never reaches it',
		async (status) => {
			sandbox.admin.setFaults({ failNext: [{ kind: 'redirect', status, path: QUOTES }] });
			const { error, items, requests } = await runAgainst(sandbox, quoteParameters);
			expect(items).toEqual([]);
			expect(error?.message).toMatch(
				new RegExp(
					`^The API answered with a redirect \\(${status}\\) to ${sandbox.redirectTarget.origin}/api/v1/partner-api/booking-quotes, which was not followed`,
				),
			);
			expect(requests).toHaveLength(1);
			expect(sandbox.redirectTarget.requests()).toEqual([]);
		},
	);

	test('an HTML page answered with 200 is an error, not a quote without a quoteId', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'html200', path: QUOTES }] });
		const { error, items, requests } = await runAgainst(sandbox, quoteParameters);
		expect(items).toEqual([]);
		expect(requests).toHaveLength(1);
		expect(error?.message).toMatch(
			/^The API answered 200 with a body that is not JSON where a JSON record was expected/,
		);
		expect(error?.description).toBe(
			'The API answered 200 with: an HTML page titled "Partner Logistics | Sign in"',
		);
	});

	test('a JSON 200 without a quoteId is not a quote', async () => {
		// A Base URL pointing at something else that answers JSON to anything.
		const result = await runNode(quoteParameters, {
			credentials: { baseUrl: `${sandbox.redirectTarget.origin}/api/v1`, apiKey: 'k_test_123456' },
		});
		expect(result.output()).toEqual([]);
		expect(result.error()?.message).toMatch(
			/^The API answered 200 without a quoteId, so this is not a usable answer/,
		);
	});

	test('an empty 200 where a record is expected is an error', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'empty200', path: QUOTES }] });
		const { error, items } = await runAgainst(sandbox, quoteParameters);
		expect(items).toEqual([]);
		expect(error?.message).toMatch(/^The API answered 200 with an empty body/);
	});

	test('a 502 HTML page is retried, and if it persists it reads as a status and a title', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'html502', path: QUOTES, times: 2 }] });
		const { error, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			options: { faultRetries: 1 },
		});
		expect(requests.map((request) => request.status)).toEqual([502, 502]);
		expect(new Set(requests.map(keyOf)).size).toBe(1);
		expect(error?.message).toMatch(/^The Partner Logistics API failed \(502\)\. Try again later/);
		expect(error?.description).toBe(
			'The API answered 502 with: an HTML page titled "502 Bad Gateway" Gave up after 1 retry.',
		);
		expect(error?.description).not.toContain('<html');
	});

	test('a 502 that passes is retried with the same key and the item succeeds', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'html502', path: QUOTES }] });
		const { error, items, requests } = await runAgainst(sandbox, quoteParameters);
		expect(error).toBeUndefined();
		expect(items[0].quoteId).toEqual(expect.any(String));
		expect(requests.map((request) => request.status)).toEqual([502, 201]);
		expect(keyOf(requests[1])).toBe(keyOf(requests[0]));
	});
});

describe('retries the Idempotency-Key makes safe', () => {
	test('a connection reset after the API committed a payment: retried, paid once', async () => {
		const { bookingId } = await booking();
		const path = `/partner-api/bookings/${bookingId as string}/payment`;
		sandbox.admin.setFaults({ failNext: [{ kind: 'resetAfterCommit', path }] });
		const { error, items, requests } = await runAgainst(sandbox, {
			resource: 'booking',
			operation: 'pay',
			bookingId: bookingId as string,
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(error).toBeUndefined();
		expect(requests.map((request) => [request.status, !!request.replayed])).toEqual([
			[0, false],
			[expect.any(Number), true],
		]);
		expect(keyOf(requests[1])).toBe(keyOf(requests[0]));
		const payments = sandbox.admin
			.state()
			.A.payments.filter((payment) => payment.resourceId === bookingId);
		expect(payments).toHaveLength(1);
		expect(items).toHaveLength(1);
	});

	test('an answer slower than the timeout: retried with the same key until the work is done', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'slow', delayMs: 1500, path: QUOTES }] });
		const { error, items, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			requestOptions: { timeout: 500 },
		});
		expect(error).toBeUndefined();
		expect(items[0].quoteId).toEqual(expect.any(String));
		expect(new Set(requests.map(keyOf)).size).toBe(1);
		// The first try timed out (the sandbox went on and committed it), the last got its replay.
		expect(requests[0].clientClosed).toBe(true);
		expect(requests.at(-1)).toMatchObject({ status: 201, replayed: true });
		expect(sandbox.admin.state().A.counts.quotes).toBeGreaterThan(0);
	});

	test('a timeout that persists names the timeout and says a rerun is safe', async () => {
		sandbox.admin.setFaults({
			failNext: [{ kind: 'slow', delayMs: 700, path: QUOTES, times: 3 }],
		});
		const { error, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			requestOptions: { timeout: 300 },
			options: { faultRetries: 0 },
		});
		expect(error?.message).toMatch(
			/^No answer from the API within 0 s \(timeout\)\. The API may have processed the request\. Running the item again is safe/,
		);
		// The sandbox logs a request when it has answered it: after its 700 ms hold.
		await new Promise((resolve) => setTimeout(resolve, 800));
		expect(requests.length + sandbox.requests().length).toBe(1);
	});

	test('a Retry-After beyond a minute stops the item at once and says so', async () => {
		sandbox.admin.setFaults({
			failNext: [{ status: 429, times: 3, retryAfterSeconds: 120, path: QUOTES }],
		});
		const started = Date.now();
		const { error, requests } = await runAgainst(sandbox, quoteParameters);
		expect(Date.now() - started).toBeLessThan(5000);
		expect(requests).toHaveLength(1);
		expect(error?.message).toBe(
			'The API asked to wait 120 s before trying again (Retry-After), longer than the 60 s this node waits. Nothing more was sent for this item; run it again later.',
		);
		expect(error?.message).not.toMatch(/Max Retries/);
	});

	test('a 429 storm: every retry keeps its key, and all items get through', async () => {
		sandbox.admin.setFaults({
			failNext: [{ status: 429, times: 3, retryAfterSeconds: 1, path: QUOTES }],
		});
		const { error, items, requests } = await runAgainst(sandbox, quoteParameters, {
			input: [{}, {}, {}, {}, {}],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		const refused = requests.filter((request) => request.status === 429);
		const accepted = requests.filter((request) => request.status === 201);
		expect(refused).toHaveLength(3);
		expect(accepted).toHaveLength(5);
		expect(new Set(accepted.map(keyOf)).size).toBe(5);
		for (const request of refused) {
			const retry = accepted.find((other) => keyOf(other) === keyOf(request))!;
			expect(retry.at - request.at).toBeGreaterThanOrEqual(950);
		}
	});

	test('a 429 pauses the whole batch, not only the refused item', async () => {
		sandbox.admin.setFaults({
			failNext: [{ status: 429, times: 1, retryAfterSeconds: 1, path: QUOTES }],
		});
		const { error, requests } = await runAgainst(
			sandbox,
			{ ...quoteParameters, options: { concurrency: 2 } },
			{ input: [{}, {}, {}, {}] },
		);
		expect(error).toBeUndefined();
		const [first, second, ...rest] = requests;
		expect(first.status).toBe(429);
		expect(second.at - first.at).toBeLessThan(200); // was in flight already
		for (const request of rest) expect(request.at - first.at).toBeGreaterThanOrEqual(950);
	});
});

describe('pacing', () => {
	test('at most Concurrency requests are in flight, reached within the first second', async () => {
		sandbox.admin.setFaults({ delayMs: 200 });
		const { error, requests } = await runAgainst(sandbox, quoteParameters, {
			input: Array.from({ length: 100 }, () => ({})),
		});
		expect(error).toBeUndefined();
		// The sandbox holds each request 200 ms from its arrival (`at`), so every request that
		// arrived in the 200 ms up to another's arrival is still in flight then; a request that
		// took a freed place arrived at least 200 ms after the one it replaced, so none is counted
		// twice. (The slow start staggers the places: a shorter window would miss some.)
		const inFlight = requests.map(
			(request) =>
				requests.filter((other) => other.at <= request.at && request.at - other.at < 200).length,
		);
		expect(Math.max(...inFlight)).toBe(20); // Concurrency's default
		// Before the API said anything of its limit, 2 at first, doubling every quarter second.
		const start = requests[0].at;
		expect(requests.filter((request) => request.at - start < 150)).toHaveLength(2);
		expect(requests.find((request) => request.at - start > 1000)).toBeDefined();

		const limited = await runAgainst(
			sandbox,
			{ ...quoteParameters, options: { concurrency: 2 } },
			{ input: Array.from({ length: 6 }, () => ({})) },
		);
		const first = limited.requests[0].at;
		expect(limited.requests.filter((request) => request.at - first < 150)).toHaveLength(2);
		expect(limited.requests.filter((request) => request.at - first < 350)).toHaveLength(4);
	});

	test('Max Requests per Second spaces the requests', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{ ...quoteParameters, options: { maxRequestsPerSecond: 20 } },
			{ input: Array.from({ length: 6 }, () => ({})) },
		);
		expect(error).toBeUndefined();
		const at = requests.map((request) => request.at);
		expect(at[5] - at[0]).toBeGreaterThanOrEqual(5 * 50 - 10);
	});

	test('under a rate limit the node slows down to what the API accepts', async () => {
		sandbox.admin.setRateLimit(20);
		const { error, items, requests } = await runAgainst(sandbox, quoteParameters, {
			input: Array.from({ length: 60 }, () => ({})),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(60);
		const refused = requests.filter((request) => request.status === 429).length;
		// One burst of in-flight requests (Concurrency, 20) meets the first 429; then the rate holds.
		expect(refused).toBeLessThanOrEqual(22);
		expect(sandbox.admin.state().A.counts.quotes).toBeGreaterThanOrEqual(60);
	});

	test('a cancelled execution sends nothing more', async () => {
		sandbox.clearLog();
		sandbox.admin.setFaults({ delayMs: 100 });
		const started = Date.now();
		const result = await runNode(
			{ ...quoteParameters, options: { concurrency: 1 } },
			{
				credentials: credentialsFor(sandbox),
				input: Array.from({ length: 50 }, () => ({})),
				cancelAfterMs: 350,
			},
		);
		// Requests are logged when answered: wait for the one in flight, then look at arrivals.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const arrivals = sandbox.requests().map((request) => request.at - started);
		expect(arrivals.length).toBeGreaterThan(0);
		expect(arrivals.length).toBeLessThan(10);
		expect(Math.max(...arrivals)).toBeLessThan(350 + 50);
		expect(result.run.status).toBe('canceled');
	});
});

describe('Options out of their range stop the run, with the bounds the editor shows', () => {
	test.each([
		['concurrency', 0, 'Concurrency', 1, 100],
		['maxRetries', 21, 'Max Retries', 0, 20],
		['faultRetries', '2.5', 'Connection Retries', 0, 10],
		['maxRequestsPerSecond', -1, 'Max Requests per Second', 0, 1000],
	])('%s = %p', async (name, value, label, min, max) => {
		const { error, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			options: { [name]: value },
		});
		expect(error?.message).toBe(
			`Options › ${label} (${name}) must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
		);
		expect(requests).toEqual([]);
	});

	test('a value within them, given as text from an expression, is used', async () => {
		const { error, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			options: { concurrency: '5' },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
	});
});
