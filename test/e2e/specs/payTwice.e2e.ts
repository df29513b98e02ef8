import { randomUUID } from 'node:crypto';

import {
	expectSucceeded,
	lastSeq,
	type LoggedRequest,
	postsTo,
	sandboxRequests,
} from '../lib/assertions';
import { CLICK_ROUTE, WORKFLOW_IDS } from '../lib/fixtures';
import { expectOk } from '../lib/http';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// The same Booking › Pay workflow executed twice on the same bookings, as a user who runs it
// again instead of using Retry (workflows/19-pay-bookings.json), against the sandbox in
// repeat-actions mode: an API that would pay a booking again under any new key. Booking › Pay is
// keyed by its booking, so the second run gets the API's first answers and pays nothing.
const suite = loadSuite();
const WORKFLOW = WORKFLOW_IDS.payBookings;
const PAY = 'Pay each booking';
const PAYMENTS = /^\/partner-api\/bookings\/[^/]+\/payment$/;
const keyOf = (request: LoggedRequest) => request.headers['idempotency-key'];
const bookingOf = (request: LoggedRequest) => request.path.split('/')[3];

/** A partner API call as the partner's own systems would make it (not through n8n). */
async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
	const answer = await expectOk<Record<string, unknown>>(
		`POST ${path}`,
		`${suite.sandbox.url}${path}`,
		{
			headers: { 'x-svc-api-key': suite.sandbox.keys.full, 'idempotency-key': randomUUID() },
			body,
		},
	);
	return answer.body;
}

const route = { serviceType: 'CLICK', ...CLICK_ROUTE };

/** Books `count` deliveries and lists their ids in the workflow's Bookings to pay. */
async function bookingsToPay(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let n = 0; n < count; n++) {
		const { quoteId } = await post('/partner-api/booking-quotes', route);
		ids.push((await post('/partner-api/bookings', { ...route, quoteId })).bookingId as string);
	}
	await suite.client.updateWorkflow(WORKFLOW, (workflow) => {
		const list = workflow.nodes.find((node) => node.name === 'Bookings to pay')!;
		list.parameters.jsonOutput = JSON.stringify({ bookingIds: ids }, null, 2);
	});
	return ids;
}

/** One manual run (the editor's Execute workflow) and the payment requests it made. */
async function run(): Promise<{ execution: Execution; posts: LoggedRequest[] }> {
	const since = await lastSeq(suite.admin);
	const execution = await suite.client.runManually(WORKFLOW);
	return { execution, posts: postsTo(await sandboxRequests(suite.admin, since), PAYMENTS) };
}

async function paymentsOf(bookingIds: string[]) {
	const { payments } = await suite.admin.stateOfOrgA();
	return payments.filter((payment) => bookingIds.includes(payment.resourceId as string));
}

let repeatActionsBefore = false;
let replayRefusalsBefore = false;
beforeAll(async () => {
	const { settings } = await suite.admin.get<{
		settings: { repeatActions: boolean; replayRefusals: boolean };
	}>('/state');
	[repeatActionsBefore, replayRefusalsBefore] = [settings.repeatActions, settings.replayRefusals];
	await suite.admin.setRepeatActions(true);
	await suite.admin.setReplayRefusals(true);
});
afterAll(async () => {
	await suite.admin.setFaults({});
	await suite.admin.setRepeatActions(repeatActionsBefore);
	await suite.admin.setReplayRefusals(replayRefusalsBefore);
});

describe('Booking › Pay executed twice on the same bookings (two manual runs)', () => {
	let ids: string[];
	let first: Awaited<ReturnType<typeof run>>;
	let second: Awaited<ReturnType<typeof run>>;

	beforeAll(async () => {
		ids = await bookingsToPay(3);
		first = await run();
		second = await run();
	});

	it('the first run pays each booking, the second succeeds too', () => {
		expectSucceeded(first.execution);
		expectSucceeded(second.execution);
		expect(first.execution.id).not.toBe(second.execution.id);
		expect(first.posts.map((post) => [bookingOf(post), post.status, post.replayed])).toEqual(
			ids.map((id) => [id, 201, undefined]),
		);
	});

	it('the second run asks under the same keys and gets the first answers: each booking paid once', async () => {
		expect(second.posts.map((post) => [bookingOf(post), keyOf(post), post.replayed])).toEqual(
			first.posts.map((post) => [bookingOf(post), keyOf(post), true]),
		);
		expect(nodeOutput(second.execution, PAY)).toEqual(nodeOutput(first.execution, PAY));
		const payments = await paymentsOf(ids);
		expect(payments.map((payment) => payment.resourceId).sort()).toEqual([...ids].sort());
	});
});

describe('two runs of it started at the same moment', () => {
	let ids: string[];
	let runs: Execution[];
	let posts: LoggedRequest[];

	beforeAll(async () => {
		ids = await bookingsToPay(2);
		// Each payment is held 600 ms once the API has reserved its key: a run that did not wait for
		// the other's request under the same key would meet it in progress (409).
		await suite.admin.setFaults({ delayMs: 600 });
		const since = await lastSeq(suite.admin);
		runs = await Promise.all([
			suite.client.runManually(WORKFLOW),
			suite.client.runManually(WORKFLOW),
		]);
		await suite.admin.setFaults({});
		posts = postsTo(await sandboxRequests(suite.admin, since), PAYMENTS);
	});

	it('both succeed with the same answers and no 409: each booking paid once', async () => {
		runs.forEach(expectSucceeded);
		expect(nodeOutput(runs[1], PAY)).toEqual(nodeOutput(runs[0], PAY));
		expect(posts.map((post) => post.status)).toEqual(posts.map(() => 201));
		const paid = (replayed: boolean) =>
			posts
				.filter((post) => !!post.replayed === replayed)
				.map(bookingOf)
				.sort();
		expect([paid(false), paid(true)]).toEqual([[...ids].sort(), [...ids].sort()]);
		const payments = await paymentsOf(ids);
		expect(payments.map((payment) => payment.resourceId).sort()).toEqual([...ids].sort());
	});
});

describe('a payment the API refused, run again from a new execution after the fix', () => {
	let ids: string[];
	let refused: Awaited<ReturnType<typeof run>>;
	let fixed: Awaited<ReturnType<typeof run>>;

	beforeAll(async () => {
		ids = await bookingsToPay(3);
		await suite.admin.setFaults({
			failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: String(PAYMENTS) }],
		});
		refused = await run();
		await suite.admin.setFaults({});
		fixed = await run();
	});

	it('the first run stops at the refused payment', () => {
		expect(refused.execution.status).toBe('error');
		expect(refused.execution.data?.resultData.error?.message).toMatch(
			/^The API refused the request as invalid \(400\)/,
		);
		expect(refused.posts.filter((post) => post.status === 400)).toHaveLength(1);
	});

	it('the new execution pays the refused booking under a new key; the others are answered as before', async () => {
		expectSucceeded(fixed.execution);
		const before = new Map(refused.posts.map((post) => [bookingOf(post), post]));
		for (const post of fixed.posts) {
			const earlier = before.get(bookingOf(post));
			if (!earlier) {
				expect([post.status, post.replayed]).toEqual([201, undefined]);
			} else if (earlier.status === 400) {
				expect([post.status, post.replayed]).toEqual([201, undefined]);
				expect(keyOf(post)).not.toBe(keyOf(earlier));
			} else {
				expect([keyOf(post), post.status, post.replayed]).toEqual([keyOf(earlier), 201, true]);
			}
		}
		expect(fixed.posts.map(bookingOf)).toEqual(ids);
		const payments = await paymentsOf(ids);
		expect(payments.map((payment) => payment.resourceId).sort()).toEqual([...ids].sort());
	});
});
