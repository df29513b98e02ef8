import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { Expression, WorkflowExpression } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { clickRoute, routeFromRows, runAgainst } from './helpers';

// From the second item on, the expressions an item's parameters hold are evaluated in one call,
// and those that only read a field of the item (`$json.pickupAddress`) are read straight off it
// (pipeline/parameters.ts). Whatever the expressions, every item must come out exactly as when it
// runs alone, where each parameter is evaluated by n8n on its own: the same body sent, or the same
// error.
// Run on n8n's legacy engine and on its sandboxed QuickJS engine (the isolated-vm engine of n8n
// 2.x needs Node 22; the e2e suite and the bench run it in real n8n).

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
	await Expression.initExpressionEngine({
		engine: 'quickjs',
		poolSize: 1,
		maxCodeCacheSize: 1024,
		bridgeTimeout: 5000,
		bridgeMemoryLimit: 128,
	});
});
afterAll(async () => {
	await Expression.disposeExpressionEngine();
	await sandbox.close();
});

/** What each item came to: the body it sent, or its error message. */
async function outcomes(parameters: INodeParameters, input: IDataObject[]) {
	const { items, requests } = await runAgainst(
		sandbox,
		{
			resource: 'quote',
			operation: 'create',
			...parameters,
			options: { concurrency: 1, ...(parameters.options as IDataObject) },
		},
		{ input, settings: { onError: 'continueRegularOutput' } },
	);
	const bodies = requests.map((request) => request.body);
	// An item's number in a message depends on where it runs, not on how it was evaluated.
	const error = (message: unknown) => String(message).replace(/^Item \d+/, 'Item N');
	return items.map((json) =>
		json.error ? { error: error(json.error) } : { body: bodies.shift() },
	);
}

const rows = (count: number, extra: (index: number) => IDataObject = () => ({})) =>
	Array.from({ length: count }, (_, index) => ({
		...clickRoute,
		pickupLatitude: 6 + index / 100,
		dropoffAddress: `${index} Admiralty Way`,
		externalReference: `ORD-${index}`,
		...extra(index),
	}));

const engines = ['legacy', 'quickjs'] as const;

describe.each(engines)('on the %s expression engine', (engine) => {
	beforeAll(() => Expression.setExpressionEngine(engine));

	/** Each item alone, then all together: the outcomes must be the same. */
	async function expectSameAsAlone(parameters: INodeParameters, input: IDataObject[]) {
		const alone = [];
		for (const row of input) alone.push(...(await outcomes(parameters, [row])));
		const together = await outcomes(parameters, input);
		expect(together).toEqual(alone);
		return together;
	}

	test('a route mapped by expressions sends each row as it is, item after item', async () => {
		const input = rows(6);
		const together = await expectSameAsAlone(
			{
				...routeFromRows,
				additionalFields: { externalReference: '={{ $json.externalReference }}' },
				options: { idempotencyKey: '={{ $json.externalReference }}' },
			},
			input,
		);
		expect(together).toEqual(
			input.map((row) => ({ body: { ...row, externalReference: row.externalReference } })),
		);
	});

	test('expressions with comments, code and templates around them', async () => {
		await expectSameAsAlone(
			{
				...routeFromRows,
				pickupAddress: '={{ $json.pickupAddress // from the sheet\n}}',
				pickupLatitude: '={{ Number($json.pickupLatitude.toFixed(3)) }}',
				dropoffAddress: '=To: {{ $json.dropoffAddress }}',
				dropoffLongitude: '={{ $json.dropoffLongitude }}\n',
				dropoffLatitude: '={{ $parameter.pickupLatitude > 0 ? $json.dropoffLatitude : 0 }}',
				additionalFields: { packageDescription: '={{ "{{ literal }}" }}' },
			},
			rows(4),
		);
	});

	test('one item whose expression fails stops alone, with the message it has alone', async () => {
		const together = await expectSameAsAlone(
			{
				...routeFromRows,
				pickupAddress: "={{ $json.bad ? $('No Such Node').item.json.x : $json.pickupAddress }}",
			},
			rows(5, (index) => (index === 2 ? { bad: true } : {})),
		);
		expect(together.map((outcome) => 'error' in outcome)).toEqual([
			false,
			false,
			true,
			false,
			false,
		]);
	});

	test('values that are not plain text or numbers get what n8n makes of them', async () => {
		await expectSameAsAlone(
			{
				...routeFromRows,
				pickupAddress:
					'={{ $json.index === 1 ? $json.pickupAddress.toUpperCase : $json.pickupAddress }}',
				dropoffAddress:
					'={{ $json.index === 2 ? { street: $json.dropoffAddress } : $json.dropoffAddress }}',
				additionalFields: {
					scheduledAt:
						"={{ $json.index === 3 ? DateTime.fromISO('2026-12-01T09:30:00Z') : undefined }}",
				},
			},
			rows(5, (index) => ({ index })),
		);
	});

	test('a hub picker mapped by an expression reads as its ID', async () => {
		const hub = (expression: string) => ({ __rl: true, mode: 'id', value: expression });
		await expectSameAsAlone(
			{
				serviceType: 'GO_LIGHT',
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: hub('={{ $json.pickupHubId }}'),
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: hub('={{ $json.dropoffHubId }}'),
			},
			[
				{ pickupHubId: 'hub_lag_ikeja', dropoffHubId: 'hub_lag_lekki' },
				{ pickupHubId: 'hub_lag_lekki', dropoffHubId: 'hub_lag_ikeja' },
				{ pickupHubId: 'hub_lag_ikeja', dropoffHubId: 'hub_lag_lekki' },
			],
		);
	});

	test('a batch n8n cannot evaluate is tried once, then each parameter is read on its own', async () => {
		const evaluated = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
		try {
			// `{{ $json.a; }}` works alone, but not as an element of the batch's array.
			const parameters = {
				...routeFromRows,
				pickupAddress: '={{ $json.pickupAddress; }}',
				pickupLatitude: '={{ Number($json.pickupLatitude) }}',
			};
			const result = await expectSameAsAlone(parameters, rows(1));
			evaluated.mockClear();
			const together = await outcomes(parameters, rows(5));
			expect(together.every((outcome) => 'body' in outcome)).toBe(true);
			expect(result[0]).toEqual(together[0]);
			const expressions = evaluated.mock.calls.filter(
				([value]) => typeof value === 'string' && value.startsWith('='),
			).length;
			// 7 alone for the first item; the failed batch and 7 for the second; 7 for each other.
			expect(expressions).toBe(7 + (1 + 7) + 3 * 7);
		} finally {
			evaluated.mockRestore();
		}
	});

	test('after the first item, fields are read off the item and the other expressions in one call', async () => {
		const evaluated = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
		try {
			const items = 30;
			const parameters = {
				...routeFromRows,
				pickupLatitude: '={{ $json.pickupLatitude + 0 }}',
				additionalFields: { externalReference: '={{ String($json.externalReference) }}' },
			};
			const result = await outcomes(parameters, rows(items));
			expect(result.every((outcome) => 'body' in outcome)).toBe(true);
			const expressions = evaluated.mock.calls.filter(
				([value]) => typeof value === 'string' && value.startsWith('='),
			).length;
			// The first item: each of its 8 expressions on its own; then one call per item for the
			// two that compute, none for the six that read a field.
			expect(expressions).toBe(8 + (items - 1));
			evaluated.mockClear();
			await outcomes(routeFromRows, rows(items));
			const reads = evaluated.mock.calls.filter(
				([value]) => typeof value === 'string' && value.startsWith('='),
			).length;
			expect(reads).toBe(7); // the first item's, then none
		} finally {
			evaluated.mockRestore();
		}
	});

	test('a field read off the item is what n8n reads: names with spaces, nested, missing, not plain', async () => {
		await expectSameAsAlone(
			{
				...routeFromRows,
				pickupAddress: "={{ $json['pickup address'] }}",
				dropoffAddress: '={{ $json.to.street }}',
				dropoffLatitude: '={{ $json["to"]["lat"] }}',
				additionalFields: {
					externalReference: '={{ $json.reference }}',
					packageDescription: '={{ $json.note }}',
				},
			},
			rows(6).map((row, index) => ({
				...row,
				'pickup address': `${index} Allen Avenue`,
				// A street and a latitude, then one missing, one an object, one a number, one a date.
				to: [
					{ street: 'Admiralty Way', lat: 6.44 },
					{ street: 'Admiralty Way', lat: 6.45 },
					{ lat: 6.46 },
					{ street: { line: 'Admiralty Way' }, lat: 6.47 },
					{ street: 12, lat: 6.48 },
					{ street: 'Admiralty Way', lat: new Date('2026-12-01T09:30:00Z') },
				][index],
				reference: index === 1 ? null : `ORD-${index}`,
				note: index % 2 ? true : 'fragile',
			})),
		);
	});
});
