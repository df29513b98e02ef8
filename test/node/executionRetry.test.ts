import type { IRun, NodeApiError } from 'n8n-workflow';

import { startSandbox, type FaultPlan, type RequestLogEntry, type Sandbox } from '../sandbox';
import { runWorkflow, type HarnessNode, type RunResult } from '../harness';
import { clickRoute, credentialsFor } from './helpers';

// n8n's Retry of a failed execution, through n8n-core's engine the way n8n runs it: the failed
// execution's saved data (a JSON copy, as from the database) without its error and the failed
// node's last run. The sandbox replays a refusal for its key, as Stripe does.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ replayRefusals: true })));
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.admin.setFaults({}));

const QUOTE: HarnessNode = {
	id: 'quote-node',
	name: 'Quote',
	parameters: { resource: 'quote', operation: 'create', ...clickRoute },
};
const BOOK: HarnessNode = {
	id: 'book-node',
	name: 'Book',
	parameters: { resource: 'booking', operation: 'create' },
};
const ORDERS = [{}, {}, {}, {}, {}];
const BOOKINGS = '/partner-api/bookings';

const keyOf = (request: RequestLogEntry) => request.headers['idempotency-key'];
const bookingPosts = () => sandbox.requests({ method: 'POST', path: BOOKINGS });
const bookings = () => sandbox.admin.state().A.bookings;

/** Quotes and books the five orders; `fault` shapes the answers to the bookings. */
async function firstRun(faults: FaultPlan) {
	sandbox.admin.reset();
	sandbox.admin.setFaults(faults);
	const result = await runWorkflow({
		nodes: [QUOTE, BOOK],
		input: ORDERS,
		credentials: credentialsFor(sandbox),
	});
	sandbox.admin.setFaults({});
	return { result, posts: bookingPosts() };
}

async function retry(failed: IRun, book: HarnessNode = BOOK): Promise<RunResult> {
	sandbox.clearLog();
	return await runWorkflow({
		nodes: [QUOTE, book],
		credentials: credentialsFor(sandbox),
		retryOf: failed,
	});
}

const refuseOneBooking: FaultPlan = {
	failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: BOOKINGS }],
};

describe('a batch of five bookings, one refused by the API (400), retried by the user', () => {
	let first: Awaited<ReturnType<typeof firstRun>>;
	let refusedKey: string;

	beforeAll(async () => {
		first = await firstRun(refuseOneBooking);
		refusedKey = keyOf(first.posts.find((post) => post.status === 400)!);
	});

	test('the first run fails with four bookings made', () => {
		expect(first.result.error('Book')?.message).toMatch(/refused the request as invalid \(400\)/);
		expect(first.posts.map((post) => post.status).sort()).toEqual([201, 201, 201, 201, 400]);
		expect(bookings()).toHaveLength(4);
	});

	test('the retry books the refused order only, replays the four, and outputs all five', async () => {
		const retried = await retry(first.result.run);
		expect(retried.error('Book')).toBeUndefined();
		const posts = bookingPosts();
		expect(posts).toHaveLength(5);
		const firstKeys = first.posts.filter((post) => post.status === 201).map(keyOf);
		const replays = posts.filter((post) => post.replayed);
		expect(replays.map(keyOf).sort()).toEqual([...firstKeys].sort());
		const fresh = posts.filter((post) => !post.replayed);
		expect(fresh).toHaveLength(1);
		expect(fresh[0].status).toBe(201);
		expect(keyOf(fresh[0])).not.toBe(refusedKey);
		expect(new Set(posts.map(keyOf)).size).toBe(5);

		// Five bookings in all, one per quote, and the output paired with the input as usual.
		const quotes = retried.output('Quote').map((item) => item.json.quoteId);
		expect(
			bookings()
				.map((booking) => booking.quoteId)
				.sort(),
		).toEqual([...quotes].sort());
		const out = retried.output('Book');
		expect(out.map((item) => item.pairedItem)).toEqual(ORDERS.map((_, item) => ({ item })));
		expect(out.map((item) => item.json.quoteId)).toEqual(quotes);
		// The quotes, already done before the failure, were not run again.
		expect(sandbox.requests({ path: '/partner-api/booking-quotes' })).toEqual([]);
	});

	test('without a fresh key the API would have replayed the refusal', async () => {
		sandbox.clearLog();
		const response = await fetch(`${sandbox.url}${BOOKINGS}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-svc-api-key': sandbox.keys.full,
				'idempotency-key': refusedKey,
			},
			body: JSON.stringify(first.posts.find((post) => post.status === 400)!.body),
		});
		expect(response.status).toBe(400);
		expect(response.headers.get('idempotent-replayed')).toBe('true');
	});
});

describe('the rule holds across retries and for every other outcome', () => {
	test('a refusal again on the first retry: the second retry sends a third key', async () => {
		const first = await firstRun(refuseOneBooking);
		const keys = [keyOf(first.posts.find((post) => post.status === 400)!)];
		sandbox.admin.setFaults(refuseOneBooking);
		const second = await retry(first.result.run);
		sandbox.admin.setFaults({});
		expect(second.error('Book')?.message).toMatch(/\(400\)/);
		keys.push(keyOf(bookingPosts().find((post) => post.status === 400)!));
		const third = await retry(second.run);
		expect(third.error('Book')).toBeUndefined();
		const fresh = bookingPosts().filter((post) => !post.replayed);
		expect(fresh.map((post) => post.status)).toEqual([201]);
		expect(keys).not.toContain(keyOf(fresh[0]));
		expect(new Set([...keys, keyOf(fresh[0])]).size).toBe(3);
		expect(bookings()).toHaveLength(5);
	});

	test('an outcome not known (a 500) keeps the key on the retry', async () => {
		const first = await firstRun({
			failNext: [{ status: 500, method: 'POST', path: BOOKINGS }],
		});
		const failedKey = keyOf(first.posts.find((post) => post.status === 500)!);
		const retried = await retry(first.result.run);
		expect(retried.error('Book')).toBeUndefined();
		const fresh = bookingPosts().filter((post) => !post.replayed);
		expect(fresh.map(keyOf)).toEqual([failedKey]);
		expect(bookings()).toHaveLength(5);
	});

	test('a new execution of the same workflow gets new keys for every item', async () => {
		const first = await firstRun({});
		expect(first.result.error('Book')).toBeUndefined();
		const again = await firstRun({});
		const before = new Set(first.posts.map(keyOf));
		expect(again.posts.filter((post) => before.has(keyOf(post)))).toEqual([]);
		expect(new Set(again.posts.map(keyOf)).size).toBe(5);
	});

	test('Retry On Fail after a refusal sends the refused item under a fresh key', async () => {
		sandbox.admin.reset();
		const quotes = await runWorkflow({
			nodes: [QUOTE],
			input: [{}],
			credentials: credentialsFor(sandbox),
		});
		sandbox.admin.setFaults(refuseOneBooking);
		const result = await runWorkflow({
			nodes: [{ ...BOOK, settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } }],
			input: quotes.output('Quote').map((item) => item.json),
			credentials: credentialsFor(sandbox),
		});
		expect(result.error('Book')).toBeUndefined();
		const posts = bookingPosts();
		expect(posts.map((post) => post.status)).toEqual([400, 201]);
		expect(keyOf(posts[1])).not.toBe(keyOf(posts[0]));
	});
});

test('a retry whose items changed since: each 409 says the key holds the first request', async () => {
	const first = await firstRun(refuseOneBooking);
	const changed: HarnessNode = {
		...BOOK,
		parameters: { ...BOOK.parameters, additionalFields: { deliveryNote: 'Ring twice' } },
		settings: { onError: 'continueRegularOutput' },
	};
	const retried = await retry(first.result.run, changed);
	const out = retried.output('Book').map((item) => item.json);
	const conflicts = retried.output('Book').filter((item) => item.json.error !== undefined);
	expect(conflicts).toHaveLength(4);
	for (const { json, error } of conflicts) {
		expect(json.error).toMatch(
			/^Conflict \(409\): the retried execution sent this item with other values\. Retry with the original workflow\.$/,
		);
		// A booking's key is its quote's in every execution: running again would not help.
		expect((error as NodeApiError).description).toMatch(
			/^It sent it under the same Idempotency-Key; .*To send the new values as a new request, set Options › Idempotency Key \(the default key is derived from Quote ID qt_\d+, the same in every execution\)\. The API answered 409/,
		);
	}
	// The refused order, never done, is booked with the new values under a fresh key.
	expect(out.filter((json) => json.bookingId)).toEqual([
		expect.objectContaining({ deliveryNote: 'Ring twice' }),
	]);
	expect(bookings()).toHaveLength(5);
	expect(
		bookingPosts()
			.map((post) => post.status)
			.sort(),
	).toEqual([201, 409, 409, 409, 409]);
});

describe.each([
	{
		operation: 'Booking › Pay',
		path: /^\/partner-api\/bookings\/[^/]+\/payment$/,
		/** Two bookings to pay, made by a run of their own. */
		setUp: async () => {
			const booked = await runWorkflow({
				nodes: [QUOTE, BOOK],
				input: [{}, {}],
				credentials: credentialsFor(sandbox),
			});
			return {
				node: {
					id: 'pay-node',
					name: 'Pay',
					parameters: {
						resource: 'booking',
						operation: 'pay',
						bookingId: '={{ $json.bookingId }}',
						paymentMethodId: sandbox.savedCards.enabled,
					},
				},
				input: booked.output('Book').map((item) => item.json),
			};
		},
	},
	{
		operation: 'Support Case › Create',
		path: /^\/partner-api\/support-cases$/,
		setUp: async () => ({
			node: {
				id: 'case-node',
				name: 'Case',
				parameters: { resource: 'supportCase', operation: 'create', title: '={{ $json.title }}' },
			},
			input: [{ title: 'Parcel late' }, { title: 'Parcel damaged' }],
		}),
	},
])('$operation follows the same rule', ({ path, setUp }) => {
	test('the retry replays the item done and sends the refused one under a fresh key', async () => {
		sandbox.admin.reset();
		const { node, input } = await setUp();
		const posts = () => sandbox.requests({ method: 'POST' }).filter((post) => path.test(post.path));
		sandbox.clearLog();
		sandbox.admin.setFaults({ failNext: [{ kind: 'refuse', status: 400, method: 'POST', path }] });
		const failed = await runWorkflow({
			nodes: [node],
			input,
			credentials: credentialsFor(sandbox),
		});
		sandbox.admin.setFaults({});
		expect(failed.error(node.name)?.message).toMatch(/\(400\)/);
		const first = posts();
		expect(first).toHaveLength(2);
		expect(first.filter((post) => post.status === 400)).toHaveLength(1);
		expect(first.filter((post) => post.status < 300)).toHaveLength(1);
		const done = first.find((post) => post.status < 300)!;
		const refused = first.find((post) => post.status === 400)!;

		sandbox.clearLog();
		const retried = await runWorkflow({
			nodes: [node],
			credentials: credentialsFor(sandbox),
			retryOf: failed.run,
		});
		expect(retried.error(node.name)).toBeUndefined();
		expect(retried.output(node.name)).toHaveLength(2);
		const again = posts();
		expect(again).toHaveLength(2);
		const replay = again.find((post) => keyOf(post) === keyOf(done));
		expect(replay).toMatchObject({ status: done.status, replayed: true });
		const fresh = again.find((post) => post !== replay)!;
		expect(fresh.status).toBeLessThan(300);
		expect(fresh.replayed).toBeUndefined();
		expect(keyOf(fresh)).not.toBe(keyOf(refused));
		expect(fresh.body).toEqual(refused.body);
	});
});

describe('n8n died mid-batch: its Retry is handed the input, and nothing the node wrote', () => {
	const QUOTES = '/partner-api/booking-quotes';
	const quotePosts = () => sandbox.requests({ method: 'POST', path: QUOTES });
	const quotes = () => sandbox.admin.state().A.quotes;

	/** The saved execution as n8n has it after a kill: the node's context was never saved. */
	function crashed(failed: IRun, nodeName: string): IRun {
		const saved = JSON.parse(JSON.stringify(failed)) as IRun;
		delete saved.data.executionData!.contextData[`node:${nodeName}`];
		return saved;
	}

	test('five quotes, the batch cut short: the Retry makes each quote once, and outputs all five', async () => {
		sandbox.admin.reset();
		sandbox.admin.setFaults({ failNext: [{ status: 500, method: 'POST', path: QUOTES }] });
		const first = await runWorkflow({
			nodes: [QUOTE, BOOK],
			input: ORDERS,
			credentials: credentialsFor(sandbox),
		});
		sandbox.admin.setFaults({});
		expect(first.error('Quote')?.message).toMatch(/\(500\)/);
		const made = quotePosts().filter((post) => post.status < 300);
		expect(made.length).toBeGreaterThan(0);
		expect(made.length).toBeLessThan(ORDERS.length);

		const retried = await retry(crashed(first.run, 'Quote'));
		expect(retried.error('Book')).toBeUndefined();
		// The quotes made before the cut were answered again under their keys, none made twice.
		const again = quotePosts();
		expect(again.filter((post) => post.replayed).map(keyOf)).toEqual(
			expect.arrayContaining(made.map(keyOf)),
		);
		expect(again.filter((post) => post.replayed)).toHaveLength(made.length);
		expect(quotes()).toHaveLength(ORDERS.length);
		expect(retried.output('Quote').map((item) => item.pairedItem)).toEqual(
			ORDERS.map((_, item) => ({ item })),
		);
		expect(bookings()).toHaveLength(ORDERS.length);
	});

	test('a later run of the same rows, once a run finished, makes new quotes', async () => {
		sandbox.admin.reset();
		const run = async () =>
			await runWorkflow({ nodes: [QUOTE], input: ORDERS, credentials: credentialsFor(sandbox) });
		expect((await run()).error('Quote')).toBeUndefined();
		expect((await run()).error('Quote')).toBeUndefined();
		expect(quotes()).toHaveLength(2 * ORDERS.length);
		expect(new Set(quotePosts().map(keyOf)).size).toBe(2 * ORDERS.length);
	});

	test('a new run of the rows of a run that failed (not its Retry) finishes its work: none twice', async () => {
		sandbox.admin.reset();
		sandbox.admin.setFaults({ failNext: [{ status: 500, method: 'POST', path: QUOTES }] });
		const input = ORDERS.map((_, order) => ({ order }));
		const run = async () =>
			await runWorkflow({ nodes: [QUOTE], input, credentials: credentialsFor(sandbox) });
		expect((await run()).error('Quote')?.message).toMatch(/\(500\)/);
		sandbox.admin.setFaults({});
		const again = await run();
		expect(again.error('Quote')).toBeUndefined();
		expect(again.output('Quote')).toHaveLength(ORDERS.length);
		expect(quotes()).toHaveLength(ORDERS.length);
	});
});
