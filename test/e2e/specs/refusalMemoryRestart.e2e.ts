import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { E2E_OWNER } from '../setup/state';
import { lastSeq, type LoggedRequest, postsTo, sandboxRequests } from '../lib/assertions';
import {
	CLICK_ROUTE,
	CREDENTIAL_IDS,
	credentialName,
	credentialsFor,
	newSigningSecret,
} from '../lib/fixtures';
import { expectOk, requestJson, waitFor } from '../lib/http';
import type { Execution } from '../lib/n8nApi';
import { type N8nServer, startN8n } from '../lib/n8nProcess';
import { SandboxAdmin } from '../lib/sandbox';
import { type Stack, startStack } from '../lib/stack';
import { loadSuite } from '../lib/suiteContext';

// Where the node remembers that the API refused a booking's payment, so the payment fixed and
// asked again is new to the API: in production executions, in the workflow's static data, which
// n8n saves in its database. Here n8n restarts between the refusal and the fixed request, so
// nothing of it is left in the process: the fixed payment must still go out under a new key. On
// an n8n and a sandbox of its own (this file restarts n8n), in replay-refusals mode.
const suite = loadSuite();
const WORKFLOW = 'plWfPayByWebhook';
const PATH = 'pay-booking';
const PAYMENTS = /^\/partner-api\/bookings\/[^/]+\/payment$/;
const keyOf = (request: LoggedRequest) => request.headers['idempotency-key'];

const payByWebhook = {
	id: WORKFLOW,
	name: 'Pay a booking on request',
	nodes: [
		{
			id: randomUUID(),
			name: 'Payment requested',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: PATH, responseMode: 'lastNode', options: {} },
		},
		{
			id: randomUUID(),
			name: 'Pay the booking',
			type: 'n8n-nodes-partner-logistics.partnerLogistics',
			typeVersion: 1,
			position: [240, 0],
			parameters: {
				resource: 'booking',
				operation: 'pay',
				bookingId: '={{ $json.body.bookingId }}',
				paymentMethodId: 'pm_card_a_api',
				additionalFields: {},
			},
			credentials: {
				partnerLogisticsApi: { id: CREDENTIAL_IDS.full, name: credentialName.full },
			},
		},
	],
	connections: {
		'Payment requested': {
			main: [[{ node: 'Pay the booking', type: 'main', index: 0 }]],
		},
	},
	settings: { executionOrder: 'v1' },
};

let stack: Stack;
let n8n: N8nServer;
let admin: SandboxAdmin;

beforeAll(async () => {
	stack = await startStack({
		workDir: join(suite.workDir, 'refusal-memory'),
		owner: E2E_OWNER,
		apiKey: true,
		fixtures: (sandbox) => ({
			credentials: credentialsFor(sandbox, newSigningSecret(), ['full']),
			workflows: [payByWebhook],
			activate: [WORKFLOW],
		}),
		log: (line) => process.stderr.write(`e2e refusal memory: ${line}\n`),
	});
	n8n = stack.n8n;
	admin = new SandboxAdmin(stack.sandbox.info);
	await admin.setReplayRefusals(true);
}, 240_000);

afterAll(async () => {
	await n8n?.stop();
	await stack?.sandbox.stop();
});

/** A booking made through the API, as the partner's own systems would. */
async function booking(): Promise<string> {
	const { url, keys } = stack.sandbox.info;
	const post = async (path: string, body: unknown) =>
		(
			await expectOk<Record<string, unknown>>(`POST ${path}`, `${url}${path}`, {
				headers: { 'x-svc-api-key': keys.full, 'idempotency-key': randomUUID() },
				body,
			})
		).body;
	const { quoteId } = await post('/partner-api/booking-quotes', CLICK_ROUTE);
	return (await post('/partner-api/bookings', { ...CLICK_ROUTE, quoteId })).bookingId as string;
}

/** The production webhook once it answers (it registers just after readiness). */
async function requestPayment(bookingId: string): Promise<LoggedRequest[]> {
	const since = await lastSeq(admin);
	await waitFor('the payment webhook', async () => {
		const answer = await requestJson(`${n8n.baseUrl}/webhook/${PATH}`, { body: { bookingId } });
		return answer.status === 404 ? undefined : answer;
	});
	return postsTo(await sandboxRequests(admin, since), PAYMENTS);
}

it('a payment refused before n8n restarted goes out under a new key once fixed', async () => {
	const bookingId = await booking();
	await admin.setFaults({
		failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: String(PAYMENTS) }],
	});
	const refused = await requestPayment(bookingId);
	await admin.setFaults({});
	expect(refused.map((post) => post.status)).toEqual([400]);
	const failed = await waitFor('the failed production execution', async () => {
		const [last] = await stack.client.executions(WORKFLOW);
		return last?.status === 'error' ? (last as Execution) : undefined;
	});
	expect(failed.mode).toBe('webhook');

	await n8n.stop();
	n8n = await startN8n(stack.instance);

	const fixed = await requestPayment(bookingId);
	expect(fixed.map((post) => [post.status, post.replayed])).toEqual([[201, undefined]]);
	expect(keyOf(fixed[0])).not.toBe(keyOf(refused[0]));
	// And from then on, the payment is answered as made, not made again.
	const again = await requestPayment(bookingId);
	expect(again.map((post) => [keyOf(post), post.status, post.replayed])).toEqual([
		[keyOf(fixed[0]), 201, true],
	]);
	const { payments } = await admin.stateOfOrgA();
	expect(payments.filter((payment) => payment.resourceId === bookingId)).toHaveLength(1);
});
