import { sandboxRequests, lastSeq } from '../lib/assertions';
import { CREDENTIAL_IDS } from '../lib/fixtures';
import { nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// From the second item on, the node evaluates the expressions of an item's parameters in one call
// (nodes/PartnerLogistics/pipeline/expressions.ts). Here, in real n8n and its isolated-vm
// expression engine, every row of a batch must come out exactly as it does alone, where each
// parameter is evaluated on its own: the same body sent, or the same error. The workflows are made
// for this test and deleted after it.
const suite = loadSuite();
const NODE = 'Quote each row';

/** Expressions of every kind the node treats differently, driven by each row's `kind`. */
const parameters = {
	resource: 'quote',
	operation: 'create',
	serviceType: '={{ $json.serviceType }}',
	pickupAddress:
		"={{ $json.kind === 'function' ? $json.pickupAddress.toUpperCase : $json.pickupAddress // from the sheet\n}}",
	pickupLatitude: '={{ Number(Number($json.pickupLatitude).toFixed(3)) }}',
	pickupLongitude:
		"={{ $json.kind === 'object' ? { lng: $json.pickupLongitude } : $json.pickupLongitude }}",
	dropoffAddress: '=To: {{ $json.dropoffAddress }}',
	dropoffLatitude: '={{ $parameter.serviceType ? $json.dropoffLatitude : 0 }}',
	dropoffLongitude:
		"={{ $json.kind === 'fail' ? $('No Such Node').item.json.x : $json.dropoffLongitude }}",
	additionalFields: {
		externalReference: '={{ $json.externalReference }}',
		scheduledAt:
			"={{ $json.kind === 'date' ? DateTime.fromISO('2026-12-01T09:30:00Z') : undefined }}",
	},
	options: { concurrency: 1 },
};

const kinds = ['plain', 'function', 'plain', 'object', 'fail', 'date', 'plain'];
const rows = kinds.map((kind, index) => ({
	kind,
	serviceType: 'CLICK',
	pickupAddress: '12 Allen Avenue, Ikeja, Lagos',
	pickupLatitude: `6.60${index}51`,
	pickupLongitude: 3.3541,
	dropoffAddress: `${index + 1} Admiralty Way, Lekki, Lagos`,
	dropoffLatitude: 6.4433,
	dropoffLongitude: 3.4702,
	externalReference: `ORD-${2001 + index}`,
}));

function workflow(name: string, input: object[]) {
	const trigger = 'When clicking ‘Execute workflow’';
	return {
		name,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ name: trigger, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{
				name: 'Rows',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ rows: input }) },
			},
			{
				name: 'One item per row',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'rows', options: {} },
			},
			{
				name: NODE,
				type: 'n8n-nodes-partner-logistics.partnerLogistics',
				typeVersion: 1,
				position: [600, 0],
				onError: 'continueRegularOutput',
				parameters,
				credentials: {
					partnerLogisticsApi: { id: CREDENTIAL_IDS.full, name: 'Partner Logistics sandbox' },
				},
			},
		],
		connections: {
			[trigger]: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
			Rows: { main: [[{ node: 'One item per row', type: 'main', index: 0 }]] },
			'One item per row': { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
	};
}

/** What each row came to: the body it sent, or its error message (item number left out). */
async function outcomes(input: object[]) {
	const created = await suite.client.publicApi<{ id: string }>(
		'POST',
		'/workflows',
		workflow(`expressions e2e ${Date.now()}`, input),
	);
	expect(created.status).toBe(200);
	const id = created.body.id;
	try {
		const since = await lastSeq(suite.admin);
		const execution = await suite.client.runManually(id);
		const bodies = (await sandboxRequests(suite.admin, since)).map((request) => request.body);
		return nodeOutput(execution, NODE).map((json) =>
			json.error
				? { error: String(json.error).replace(/^Item \d+/, 'Item N') }
				: { body: bodies.shift() },
		);
	} finally {
		await suite.client.publicApi('DELETE', `/workflows/${id}`);
	}
}

describe('expressions evaluated in one call per item, in real n8n', () => {
	let alone: Awaited<ReturnType<typeof outcomes>>;
	let together: Awaited<ReturnType<typeof outcomes>>;

	beforeAll(async () => {
		alone = [];
		for (const row of rows) alone.push(...(await outcomes([row])));
		together = await outcomes(rows);
	}, 120_000);

	it('gives every row of the batch exactly what it gets alone', () => {
		expect(together).toEqual(alone);
	});

	it('sends the plain rows as mapped, templates and code included', () => {
		expect(together[2]).toEqual({
			body: {
				serviceType: 'CLICK',
				pickupAddress: '12 Allen Avenue, Ikeja, Lagos',
				pickupLatitude: 6.603,
				pickupLongitude: 3.3541,
				dropoffAddress: 'To: 3 Admiralty Way, Lekki, Lagos',
				dropoffLatitude: 6.4433,
				dropoffLongitude: 3.4702,
				externalReference: 'ORD-2003',
			},
		});
	});

	it('stops the rows whose expression gives a function, an object or fails, and only those', () => {
		expect(together.map((outcome) => 'error' in outcome)).toEqual([
			false,
			true,
			false,
			true,
			true,
			false,
			false,
		]);
		// A date is sent as n8n makes it text: the same instant, in the workflow's time zone.
		const { scheduledAt } = (together[5] as { body: { scheduledAt: string } }).body;
		expect(Date.parse(scheduledAt)).toBe(Date.parse('2026-12-01T09:30:00Z'));
	});
});
