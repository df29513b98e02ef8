import { lastSeq, sandboxRequests } from '../lib/assertions';
import { CREDENTIAL_IDS, credentialName, POLLING_TRIGGER } from '../lib/fixtures';
import { nodeOutput } from '../lib/n8nApi';
import { fetchTestEvent } from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';

// A path id can only name its own record, in real n8n: ids taken from upstream data (a webhook
// payload, a sheet) that are empty, "." or ".." are refused before anything is sent, by the node
// and by the polling trigger (URL-encoding leaves dots alone and the URL parser removes the
// segment: Booking › Pay with ".." had sent POST /partner-api/payment); any other id reaches its
// own path, encoded. Each workflow is made here through the editor's API, its ids pinned as the
// trigger's output.
const suite = loadSuite();
const credentials = {
	partnerLogisticsApi: { id: CREDENTIAL_IDS.full, name: credentialName.full },
};
const MANUAL = 'When clicking ‘Execute workflow’';

/** A workflow: a Manual Trigger whose output is `ids`, then `node`, its errors on its output. */
async function createRun(
	name: string,
	ids: string[],
	nodes: Array<{ name: string; parameters: Record<string, unknown> }>,
): Promise<string> {
	const { data } = await suite.client.rest<{ id: string }>('POST', '/workflows', {
		name,
		nodes: [
			{
				name: MANUAL,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...nodes.map((node, index) => ({
				...node,
				type: 'n8n-nodes-partner-logistics.partnerLogistics',
				typeVersion: 1,
				position: [240, index * 200],
				onError: 'continueRegularOutput',
				credentials,
			})),
		],
		connections: {
			[MANUAL]: {
				main: [nodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))],
			},
		},
		pinData: { [MANUAL]: ids.map((id) => ({ json: { id } })) },
		settings: { executionOrder: 'v1' },
		// n8n 1.x's editor sends it (its database refuses a workflow without); 2.x accepts it.
		active: false,
	});
	return data.id;
}

/** A workflow whose only node is a polling trigger watching the payment references listed. */
async function createWatch(name: string, references: string): Promise<string> {
	const { data } = await suite.client.rest<{ id: string }>('POST', '/workflows', {
		name,
		nodes: [
			{
				name: POLLING_TRIGGER,
				type: 'n8n-nodes-partner-logistics.partnerLogisticsPollingTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					watch: 'payment',
					references,
				},
				credentials,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		// n8n 1.x's editor sends it (its database refuses a workflow without); 2.x accepts it.
		active: false,
	});
	return data.id;
}

const STEP = 'cannot be "." or "..": the request would reach another endpoint of the API';

describe('path ids in real n8n', () => {
	it('the node refuses "..", "." and an empty id before sending anything, naming field and item', async () => {
		const workflowId = await createRun(
			'Path ids: Booking › Pay and Support Case › Close',
			['..', '.', '  '],
			[
				{
					name: 'Pay',
					parameters: {
						resource: 'booking',
						operation: 'pay',
						bookingId: '={{ $json.id }}',
						paymentMethodId: 'pm_card_a_api',
					},
				},
				{
					name: 'Close',
					parameters: {
						resource: 'supportCase',
						operation: 'close',
						caseId: '={{ $json.id }}',
						note: 'Delivered',
					},
				},
			],
		);
		const since = await lastSeq(suite.admin);
		const execution = await suite.client.runManually(workflowId);
		expect(await sandboxRequests(suite.admin, since)).toEqual([]);
		expect(nodeOutput(execution, 'Pay').map((item) => item.error)).toEqual([
			`Item 1: Booking ID (bookingId) ${STEP}, got ".."`,
			`Item 2: Booking ID (bookingId) ${STEP}, got "."`,
			'Item 3: Booking ID (bookingId) is required, got "  "',
		]);
		expect(nodeOutput(execution, 'Close').map((item) => item.error)).toEqual([
			`Item 1: Case ID (caseId) ${STEP}, got ".."`,
			`Item 2: Case ID (caseId) ${STEP}, got "."`,
			'Item 3: Case ID (caseId) is required, got "  "',
		]);
	});

	it('the node sends a/b, x?y=1 and #f to their own path, encoded', async () => {
		const workflowId = await createRun(
			'Path ids: Payment › Get',
			['a/b', 'x?y=1', '#f'],
			[
				{
					name: 'Get payment',
					parameters: { resource: 'payment', operation: 'get', reference: '={{ $json.id }}' },
				},
			],
		);
		const since = await lastSeq(suite.admin);
		const execution = await suite.client.runManually(workflowId);
		const requests = await sandboxRequests(suite.admin, since);
		expect(
			requests.map((request) => [request.method, request.path, request.status]).sort(),
		).toEqual([
			['GET', '/partner-api/payments/%23f', 404],
			['GET', '/partner-api/payments/a%2Fb', 404],
			['GET', '/partner-api/payments/x%3Fy%3D1', 404],
		]);
		expect(nodeOutput(execution, 'Get payment').map((item) => item.error)).toEqual(
			Array(3).fill(expect.stringMatching(/^Not found in your organization \(404\)/)),
		);
	});

	it('the polling trigger refuses ".." in its list before any request', async () => {
		const workflowId = await createWatch('Path ids: polling trigger with ".."', 'pay_1, .., pay_2');
		const since = await lastSeq(suite.admin);
		const test = await fetchTestEvent(suite.client, workflowId);
		expect(await sandboxRequests(suite.admin, since)).toEqual([]);
		expect(test.status).toBe('error');
		expect(test.data?.resultData.error?.message).toBe(
			'Payment References (references): ID 2 of the list cannot be ".."',
		);
		expect(test.data?.resultData.error?.description).toBe(
			`Nothing was sent to the API. An ID ${STEP}. Correct the list and the next poll reads it.`,
		);
	});

	it('the polling trigger reads a/b, x?y=1 and #f at their own path, and reports them not found', async () => {
		const workflowId = await createWatch('Path ids: polling trigger, encoded', 'a/b, x?y=1, #f');
		const since = await lastSeq(suite.admin);
		const test = await fetchTestEvent(suite.client, workflowId);
		const requests = await sandboxRequests(suite.admin, since);
		expect(requests.map((request) => [request.path, request.status]).sort()).toEqual([
			['/partner-api/payments/%23f', 404],
			['/partner-api/payments/a%2Fb', 404],
			['/partner-api/payments/x%3Fy%3D1', 404],
		]);
		expect(nodeOutput(test, POLLING_TRIGGER).map((item) => [item.change, item.recordId])).toEqual([
			['notFound', 'a/b'],
			['notFound', 'x?y=1'],
			['notFound', '#f'],
		]);
	});
});
