import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { loggedText, runWorkflow } from '../harness';
import { clickRoute, credentialsFor, runAgainst } from './helpers';

// Idempotency keys, retries and error statuses, through n8n's engine against the sandbox.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.admin.setFaults({}));
afterAll(async () => {
	// n8n logged the errors of this file's runs (4xx, 5xx): never with a key.
	const logged = await loggedText();
	expect(logged).toContain('finished with error');
	for (const key of [...Object.values(sandbox.keys), 'wrong-key-123']) {
		expect(logged).not.toContain(key);
	}
});

const quoteParameters = { resource: 'quote', operation: 'create', ...clickRoute };
const bookingCount = () => sandbox.admin.state().A.counts.bookings;
const keyOf = (request: { headers: Record<string, string> }) => request.headers['idempotency-key'];

async function quoteItem(): Promise<IDataObject> {
	const { items } = await runAgainst(sandbox, quoteParameters);
	return items[0];
}

describe('Idempotency-Key', () => {
	test('a response dropped after the booking was committed, with Retry On Fail: one booking', async () => {
		const quote = await quoteItem();
		const before = bookingCount();
		sandbox.admin.setFaults({ dropAfterCommit: 1 });

		const { result, items, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create' },
			{ input: [quote], settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 } },
		);

		expect(result.error()).toBeUndefined();
		expect(bookingCount()).toBe(before + 1);
		expect(requests).toHaveLength(2);
		expect(requests[0].status).toBe(0); // committed, then the socket was destroyed
		expect(requests[1]).toMatchObject({ status: 201, replayed: true });
		expect(keyOf(requests[1])).toBe(keyOf(requests[0]));
		expect(items[0]).toMatchObject({ bookingId: expect.any(String), quoteId: quote.quoteId });
	});

	test('without Retry On Fail the node retries the dropped response itself: one booking', async () => {
		const quote = await quoteItem();
		const before = bookingCount();
		sandbox.admin.setFaults({ dropAfterCommit: 1 });
		const { error, items, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create' },
			{ input: [quote] },
		);
		expect(error).toBeUndefined();
		expect(bookingCount()).toBe(before + 1);
		expect(requests.map((request) => request.status)).toEqual([0, 201]);
		expect(requests[1].replayed).toBe(true);
		expect(keyOf(requests[1])).toBe(keyOf(requests[0]));
		expect(items[0]).toMatchObject({ bookingId: expect.any(String) });
	});

	test('with Connection Retries 0 the dropped response is an error that says a rerun is safe', async () => {
		const quote = await quoteItem();
		sandbox.admin.setFaults({ dropAfterCommit: 1 });
		const { result, error, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create', options: { faultRetries: 0 } },
			{ input: [quote] },
		);
		expect(requests).toHaveLength(1);
		expect(error?.message).toBe(
			'The connection to the API broke before it answered. Running the item again is safe.',
		);
		expect((error as NodeApiError).description).toBe(
			'The API may have processed the request: running it again resends the same Idempotency-Key, so nothing is booked or paid twice. Connection fault: ECONNRESET',
		);
		expect(JSON.stringify(result.run)).not.toContain(sandbox.keys.full);
	});

	test('differs between items, operations and nodes, and is sent only on POST', async () => {
		sandbox.clearLog();
		const run = await runWorkflow({
			credentials: credentialsFor(sandbox),
			input: [{ n: 1 }, { n: 2 }],
			nodes: [
				{ name: 'Quote A', parameters: quoteParameters },
				{ name: 'Quote B', parameters: quoteParameters },
				{ name: 'Book', parameters: { resource: 'booking', operation: 'create' } },
				{ name: 'Hubs', parameters: { resource: 'hub', operation: 'getAll' } },
			],
		});
		expect(run.error('Book')).toBeUndefined();
		const posts = sandbox.requests({ method: 'POST' });
		expect(posts).toHaveLength(6); // 2 items x (Quote A, Quote B, Book)
		expect(new Set(posts.map(keyOf)).size).toBe(6);
		expect(posts.filter((request) => request.path === '/partner-api/bookings')).toHaveLength(2);
		for (const request of sandbox.requests({ method: 'GET' })) {
			expect(request.headers).not.toHaveProperty('idempotency-key');
		}
	});

	test('a key set in Options is sent as given', async () => {
		const { requests } = await runAgainst(
			sandbox,
			{
				...quoteParameters,
				options: { idempotencyKey: '={{ "order-" + $json.orderId + "-quote" }}' },
			},
			{ input: [{ orderId: 7 }, { orderId: 8 }] },
		);
		expect(requests.map(keyOf)).toEqual(['order-7-quote', 'order-8-quote']);
	});

	test('the same given key with another body is refused by the API with a 409 that says why', async () => {
		const options = { idempotencyKey: 'fixed-key-for-409' };
		await runAgainst(sandbox, { ...quoteParameters, options });
		const { error } = await runAgainst(sandbox, {
			...quoteParameters,
			pickupAddress: 'Another street',
			options,
		});
		expect(error?.message).toMatch(
			/^Conflict \(409\): This Idempotency-Key was already used for a differ… Give each action/,
		);
		expect(error?.description).toContain('Idempotency-Key was already used');
		expect(error?.description).toContain('IDEMPOTENCY_KEY_REUSED');
	});
});

describe('429 and 503 are retried with the same key, honouring Retry-After', () => {
	test('429 twice, then success', async () => {
		sandbox.admin.setFaults({
			failNext: [
				{ status: 429, times: 2, retryAfterSeconds: 0, path: '/partner-api/booking-quotes' },
			],
		});
		const { error, items, requests } = await runAgainst(sandbox, quoteParameters);
		expect(error).toBeUndefined();
		expect(items[0].quoteId).toEqual(expect.any(String));
		expect(requests.map((request) => request.status)).toEqual([429, 429, 201]);
		expect(new Set(requests.map(keyOf)).size).toBe(1);
	});

	test('the wait is at least what Retry-After asks', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 503, times: 1, retryAfterSeconds: 1 }] });
		const { error, requests } = await runAgainst(sandbox, quoteParameters);
		expect(error).toBeUndefined();
		expect(requests.map((request) => request.status)).toEqual([503, 201]);
		expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(990);
	});

	test('exhausted retries end in a clear error', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 429, times: 5, retryAfterSeconds: 0 }] });
		const { error, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			options: { maxRetries: 2 },
		});
		expect(requests).toHaveLength(3);
		expect(error?.message).toMatch(/^The API kept rate limiting this key \(429\)/);
		expect(error?.message).toMatch(/Options › Concurrency/);
		expect(error?.description).toMatch(/Gave up after 2 retries\.$/);
	});

	test('503 exhausted', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 503, times: 3, retryAfterSeconds: 0 }] });
		const { error, requests } = await runAgainst(sandbox, {
			...quoteParameters,
			options: { maxRetries: 1 },
		});
		expect(requests).toHaveLength(2);
		expect(error?.message).toMatch(/^The Partner Logistics API failed \(503\).*Try again later/);
		expect((error as NodeApiError).description).toMatch(/same Idempotency-Key/);
	});

	test('500 is not retried: it may not be temporary', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 500, times: 1 }] });
		const { error, requests } = await runAgainst(sandbox, quoteParameters);
		expect(requests).toHaveLength(1);
		expect(error?.message).toMatch(/^The Partner Logistics API failed \(500\)/);
		expect((error as { httpCode?: string }).httpCode).toBe('500');
	});
});

describe('each API status becomes an error that says what to do', () => {
	test('400: the API message and field, with its body kept', async () => {
		const { error } = await runAgainst(sandbox, {
			resource: 'quote',
			operation: 'create',
			serviceType: 'GO_LIGHT',
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: { __rl: true, mode: 'id', value: sandbox.hubs.inactive[0] },
			dropoffAddress: 'x',
			dropoffLatitude: 6,
			dropoffLongitude: 3,
		});
		expect(error?.message).toMatch(
			/^The API refused the request as invalid \(400\): .+ \[field: pickupHubId\]/,
		);
		expect(error?.description).toMatch(
			/^Correct the value and run again\. The API answered 400 with: \{"code":"UNKNOWN_HUB"/,
		);
	});

	test('401: the credential to fix', async () => {
		const { result, error } = await runAgainst(sandbox, quoteParameters, { key: 'wrong-key-123' });
		expect(error?.message).toMatch(
			/^The API key was refused \(401\)\. Paste the key again .* into the Partner Logistics credential/,
		);
		expect(JSON.stringify(result.run)).not.toContain('wrong-key-123');
	});

	test.each([
		['create', 'support:create', { title: 'x', summary: 'y' }],
		['getAll', 'support:read', {}],
	])('403 on supportCase %s names %s', async (operation, capability, fields) => {
		const { error } = await runAgainst(
			sandbox,
			{ resource: 'supportCase', operation, ...fields },
			{ key: sandbox.keys.noSupport },
		);
		expect(error?.message).toBe(
			`This API key lacks the capability ${capability} (403). Ask your Partner Logistics contact to grant it to the key.`,
		);
	});

	test("404: another organization's resource is not found", async () => {
		const created = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			itemDescription: 'x',
		});
		const { error } = await runAgainst(
			sandbox,
			{
				resource: 'quoteRequest',
				operation: 'get',
				quoteRequestId: created.items[0].quoteRequestId as string,
			},
			{ key: sandbox.keys.otherOrg },
		);
		expect(error?.message).toMatch(/^Not found in your organization \(404\)/);
	});

	test('409: a state conflict (a quote booked twice)', async () => {
		const quote = await quoteItem();
		await runAgainst(sandbox, { resource: 'booking', operation: 'create' }, { input: [quote] });
		const { error } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create', options: { idempotencyKey: 'second-booking' } },
			{ input: [quote] },
		);
		expect(error?.message).toMatch(/^Conflict \(409\)/);
		expect(error?.description).toContain('QUOTE_ALREADY_BOOKED');
	});

	test('with Continue On Fail an API error becomes an error item and the others go on', async () => {
		const { result, requests } = await runAgainst(
			sandbox,
			{ resource: 'payment', operation: 'get', reference: '={{ $json.reference }}' },
			{
				input: [{ reference: 'pay_missing' }, { reference: 'pay_missing_too' }],
				settings: { onError: 'continueRegularOutput' },
			},
		);
		expect(requests).toHaveLength(2);
		const items = result.output();
		expect(items).toHaveLength(2);
		for (const item of items) expect(item.json.error).toMatch(/Not found in your organization/);
	});
});
