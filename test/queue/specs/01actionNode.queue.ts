import {
	derivedKey,
	expectPublicApiCredentialTest,
	lastSeq,
	onlyItem,
	postsTo,
	sandboxRequests,
} from '../../e2e/lib/assertions';
import { CREDENTIAL_IDS, credentialName } from '../../e2e/lib/fixtures';
import { requestJson } from '../../e2e/lib/http';
import type { Execution } from '../../e2e/lib/n8nApi';
import { loadQueueSuite, QUEUE_WORKFLOWS } from '../setup/context';
import { ranExecution, settledExecutions } from '../setup/executions';

// The action node in production executions: a webhook process queues them, the worker runs them.
// The editor's calls (credential test, hub picker) are answered by the main.
const suite = loadQueueSuite();
const [webhookA, webhookB] = suite.webhookProcesses;
const ranOn = (executionId: string) =>
	Object.entries(suite.logFiles)
		.filter(([, file]) => ranExecution(file, executionId))
		.map(([role]) => role);

describe('quote -> booking on the worker', () => {
	let execution: Execution;
	let answer: { status: number; body: Record<string, unknown> };
	let since: number;

	beforeAll(async () => {
		since = await lastSeq(suite.admin);
		answer = await requestJson(`${webhookA}/webhook/queue-quote-booking`, {
			body: { orderId: 'queue-order-1' },
		});
		[execution] = await settledExecutions(suite.client, QUEUE_WORKFLOWS.quoteBooking, 1);
	});

	it('answers the webhook with the booking, after the worker ran the workflow', () => {
		expect(answer.status).toBe(200);
		expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
		const booking = onlyItem(execution, 'Book the quote');
		expect(booking).toMatchObject({
			bookingId: expect.stringMatching(/^bk_/),
			status: 'AWAITING_PAYMENT',
		});
		expect(answer.body).toMatchObject({ bookingId: booking.bookingId });
		expect(ranOn(execution.id)).toEqual(['worker']);
	});

	it('sent each POST with the key and its own derived Idempotency-Key', async () => {
		const requests = await sandboxRequests(suite.admin, since);
		const quote = postsTo(requests, /^\/partner-api\/booking-quotes$/);
		const booking = postsTo(requests, /^\/partner-api\/bookings$/);
		expect(quote).toHaveLength(1);
		expect(booking).toHaveLength(1);
		expect(quote[0].headers).toMatchObject({
			'x-svc-api-key': suite.sandbox.keys.full,
			'idempotency-key': derivedKey('quote.create'),
		});
		expect(booking[0].headers).toMatchObject({
			'x-svc-api-key': suite.sandbox.keys.full,
			'idempotency-key': derivedKey('booking.create'),
		});
		expect(booking[0].body).toMatchObject({
			quoteId: onlyItem(execution, 'Quote delivery to the hub').quoteId,
		});
	});
});

describe('an API error on the worker', () => {
	it('fails the execution with the same message as in regular mode', async () => {
		const since = await lastSeq(suite.admin);
		const answer = await requestJson(`${webhookB}/webhook/queue-support-case`, { body: {} });
		expect(answer.status).toBe(200);
		const [execution] = await settledExecutions(
			suite.client,
			QUEUE_WORKFLOWS.supportNoCapability,
			1,
		);
		expect(execution.status).toBe('error');
		const error = execution.data?.resultData.error;
		expect(error?.node?.name).toBe('Open a support case');
		expect(error?.message).toMatch(
			/^This API key lacks the capability support:create \(403\)\. Ask/,
		);
		expect(ranOn(execution.id)).toEqual(['worker']);
		const requests = await sandboxRequests(suite.admin, since);
		expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', '/partner-api/support-cases', 403],
		]);
	});
});

describe('the editor, served by the main', () => {
	it('tests credentials through the public API', async () => {
		await expectPublicApiCredentialTest(suite.client);
	});

	// What the editor posts when the hub picker of Quote › Create opens or is searched.
	const pickHubs = (filter?: string) =>
		suite.client.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				path: 'parameters.dropoffHubId',
				nodeTypeAndVersion: { name: 'n8n-nodes-partner-logistics.partnerLogistics', version: 1 },
				methodName: 'searchHubs',
				filter,
				currentNodeParameters: {
					resource: 'quote',
					operation: 'create',
					serviceType: 'GO_LIGHT',
					pickupMethod: 'HOME_PICKUP',
					dropoffMethod: 'HUB_PICKUP',
					dropoffHubId: { __rl: true, mode: 'list', value: '' },
				},
				credentials: {
					partnerLogisticsApi: { id: CREDENTIAL_IDS.full, name: credentialName.full },
				},
			},
		);

	it('lists and searches hubs in the hub picker', async () => {
		const all = await pickHubs();
		expect(all.data.results.map((hub) => hub.value)).toEqual(suite.sandbox.hubs.active);
		const one = await pickHubs(suite.sandbox.hubs.active[1].toUpperCase());
		expect(one.data.results.map((hub) => hub.value)).toEqual([suite.sandbox.hubs.active[1]]);
	});
});
