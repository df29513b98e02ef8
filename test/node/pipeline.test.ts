import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { runNode } from '../harness';
import { clickRoute, runAgainst } from './helpers';

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
					`^The API answered with a redirect \\(${status}\\) to ${sandbox.redirectTarget.origin}/api/v1/partner-api/booking-quotes, not followed so the API key stays here`,
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
			/^The API answered 200 with a non-JSON body where a JSON record was expected/,
		);
		expect(error?.description).toMatch(
			/The API answered 200 with: an HTML page titled "Partner Logistics \| Sign in"$/,
		);
	});

	test('a JSON 200 without a quoteId is not a quote', async () => {
		// A Base URL pointing at something else that answers JSON to anything.
		const result = await runNode(quoteParameters, {
			credentials: { baseUrl: `${sandbox.redirectTarget.origin}/api/v1`, apiKey: 'k_test_123456' },
		});
		expect(result.output()).toEqual([]);
		expect(result.error()?.message).toBe(
			"The API answered 200 without a quoteId. Check that the credential's Base URL points at the Partner Logistics API.",
		);
		expect((result.error() as NodeApiError).description).toMatch(
			/^This is not a usable answer, so nothing is output for this item\. The API answered 200 with: /,
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
		expect(error?.description).toMatch(
			/The API answered 502 with: an HTML page titled "502 Bad Gateway" Gave up after 1 retry\.$/,
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
		expect(error?.message).toBe(
			'No answer from the API within 0.3 s (timeout). Running the item again is safe.',
		);
		expect((error as NodeApiError).description).toMatch(/^The API may have processed the request/);
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
		expect(error?.message).toMatch(
			/^The API asked to wait 120 s \(Retry-After\), longer than the 60 s this node waits\. Try again after \d\d:\d\d:\d\d UTC\.$/,
		);
		expect((error as NodeApiError).description).toMatch(/^Nothing more was sent for this item\./);
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
