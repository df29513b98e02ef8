import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { runNode } from '../harness';
import { clickRoute, credentialsFor, rl, runAgainst } from './helpers';

// Nothing is sent that the user did not give, and every value is read the same way wherever it
// comes from (typed, mapped, or a sheet's text), through n8n's engine against the sandbox.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

const quote = (parameters: IDataObject, input: IDataObject[] = [{}]) =>
	runAgainst(sandbox, { resource: 'quote', operation: 'create', ...parameters }, { input });

describe('required inputs are really required', () => {
	test('an untouched route form does not run: n8n names the empty required fields', async () => {
		sandbox.clearLog();
		await expect(
			runNode(
				{ resource: 'quote', operation: 'create', pickupAddress: 'a', dropoffAddress: 'b' },
				{ credentials: credentialsFor(sandbox) },
			),
		).rejects.toThrow(
			/has issues:\s+- Parameter "Pickup Latitude" is required\.\s+- Parameter "Pickup Longitude" is required\.\s+- Parameter "Drop-Off Latitude" is required\.\s+- Parameter "Drop-Off Longitude" is required\./,
		);
		expect(sandbox.requests()).toEqual([]);
	});

	test.each([
		['pickupAddress', 'Pickup Address'],
		['pickupLatitude', 'Pickup Latitude'],
		['pickupLongitude', 'Pickup Longitude'],
		['dropoffAddress', 'Drop-Off Address'],
		['dropoffLatitude', 'Drop-Off Latitude'],
		['dropoffLongitude', 'Drop-Off Longitude'],
	])('%s mapped to nothing fails the item naming it, and sends nothing', async (field, label) => {
		const { error, requests } = await quote({ ...clickRoute, [field]: '={{ $json.missing }}' });
		expect(error?.message).toBe(`Item 1: ${label} (${field}) is required, got nothing`);
		expect(requests).toEqual([]);
	});

	test('EXPRESS without a weight fails naming it', async () => {
		const { error, requests } = await quote({ ...clickRoute, serviceType: 'EXPRESS' });
		expect(error?.message).toBe(
			'Item 1: Package Weight (Kg) (packageWeightKg) is required for EXPRESS, got nothing',
		);
		expect(requests).toEqual([]);
	});

	test('an out-of-range number is refused with the rule, never changed', async () => {
		const { error, requests } = await quote({ ...clickRoute, pickupLatitude: '120' });
		expect(error?.message).toBe(
			'Item 1: Pickup Latitude (pickupLatitude) must be a number between −90 and 90, got 120',
		);
		expect(requests).toEqual([]);
	});

	test("a batch error names the item's own reference", async () => {
		const { result } = await runAgainst(
			sandbox,
			{ resource: 'quote', operation: 'create', routeSource: 'inputFields' },
			{
				input: [
					{ ...clickRoute, externalReference: 'ORDER-1' },
					{ ...clickRoute, pickupLatitude: 95, externalReference: 'ORDER-2' },
				],
				settings: { onError: 'continueRegularOutput' },
			},
		);
		expect(result.output()[1].json.error).toBe(
			'Item 2 (externalReference ORDER-2): Pickup Latitude (pickupLatitude) must be a number between −90 and 90, got 95',
		);
	});
});

describe('nothing is sent that the user did not give', () => {
	test('GO_LIGHT without a chosen delivery mode sends none', async () => {
		const { error, requests } = await quote({ ...clickRoute, serviceType: 'GO_LIGHT' });
		expect(error).toBeUndefined();
		expect(requests[0].body).toEqual({
			serviceType: 'GO_LIGHT',
			pickupMethod: 'HOME_PICKUP',
			pickupAddress: clickRoute.pickupAddress,
			pickupLatitude: clickRoute.pickupLatitude,
			pickupLongitude: clickRoute.pickupLongitude,
			dropoffMethod: 'HOME_DELIVERY',
			dropoffAddress: clickRoute.dropoffAddress,
			dropoffLatitude: clickRoute.dropoffLatitude,
			dropoffLongitude: clickRoute.dropoffLongitude,
		});
	});

	test('GO_BULK hub to hub sends the hubs and nothing of a home end', async () => {
		const { error, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			itemDescription: '40 bags of cement',
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: rl(sandbox.hubs.active[0]),
			pickupAddress: 'left over from the home form',
			dropoffMethod: 'HUB_PICKUP',
			dropoffHubId: rl(sandbox.hubs.active[1]),
		});
		expect(error).toBeUndefined();
		expect(requests[0].body).toEqual({
			itemDescription: '40 bags of cement',
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: sandbox.hubs.active[0],
			dropoffMethod: 'HUB_PICKUP',
			dropoffHubId: sandbox.hubs.active[1],
		});
	});

	test('GO_BULK home ends without coordinates send the addresses only', async () => {
		const { error, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			itemDescription: 'Tiles',
			pickupAddress: '12 Allen Avenue',
			dropoffAddress: '5 Admiralty Way',
		});
		expect(error).toBeUndefined();
		expect(requests[0].body).toEqual({
			itemDescription: 'Tiles',
			pickupMethod: 'HOME_PICKUP',
			pickupAddress: '12 Allen Avenue',
			dropoffMethod: 'HOME_DELIVERY',
			dropoffAddress: '5 Admiralty Way',
		});
	});
});

describe('numbers from a sheet are read the same way on every operation', () => {
	test('Quote › Create and Quote Request › Create read numeric strings as numbers', async () => {
		const quoted = await quote({
			...clickRoute,
			pickupLatitude: '6.6018',
			pickupLongitude: ' 3.3515 ',
		});
		expect(quoted.error).toBeUndefined();
		expect(quoted.requests[0].body).toMatchObject({
			pickupLatitude: 6.6018,
			pickupLongitude: 3.3515,
		});

		const requested = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			itemDescription: 'Cement',
			quantity: '40',
			pickupAddress: 'a',
			pickupLatitude: '6.5',
			pickupLongitude: '3.4',
			dropoffMethod: 'HUB_PICKUP',
			dropoffHubId: rl(sandbox.hubs.active[0]),
		});
		expect(requested.error).toBeUndefined();
		expect(requested.requests[0].body).toMatchObject({
			quantity: 40,
			pickupLatitude: 6.5,
			pickupLongitude: 3.4,
		});
	});

	test('a numeric quoteId is compared as text: a differing route is still caught', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{
				resource: 'booking',
				operation: 'create',
				routeSource: 'define',
				...clickRoute,
				dropoffLatitude: 6.5,
			},
			{ input: [{ quoteId: 12345, quotedRoute: { ...clickRoute } }] },
		);
		expect(error?.message).toMatch(
			/^Item 1: Drop-Off Latitude \(dropoffLatitude\) differs from the route the quote was priced for/,
		);
		expect(requests).toEqual([]);
	});
});

describe('Map From Input Fields', () => {
	const rows = [
		{
			orderId: 'A-1',
			serviceType: 'EXPRESS',
			packageWeightKg: '2.5',
			pickupAddress: '12 Allen Avenue',
			pickupLatitude: '6.6018',
			pickupLongitude: '3.3515',
			dropoffAddress: '5 Admiralty Way',
			dropoffLatitude: '6.4474',
			dropoffLongitude: '3.4728',
			externalReference: 'A-1',
		},
		{
			orderId: 'A-2',
			serviceType: 'CLICK',
			pickupAddress: 'x',
			pickupLatitude: 6.5,
			pickupLongitude: 3.4,
			dropoffAddress: 'y',
			dropoffLatitude: 6.4,
			dropoffLongitude: 3.5,
			deliveryNote: 'Call on arrival',
		},
	];

	test('quotes from rows send exactly the API fields each row carries, as numbers', async () => {
		const { error, requests, items } = await quote({ routeSource: 'inputFields' }, rows);
		expect(error).toBeUndefined();
		expect(requests.map((request) => request.body)).toEqual([
			{
				serviceType: 'EXPRESS',
				packageWeightKg: 2.5,
				pickupAddress: '12 Allen Avenue',
				pickupLatitude: 6.6018,
				pickupLongitude: 3.3515,
				dropoffAddress: '5 Admiralty Way',
				dropoffLatitude: 6.4474,
				dropoffLongitude: 3.4728,
				externalReference: 'A-1',
			},
			{
				serviceType: 'CLICK',
				pickupAddress: 'x',
				pickupLatitude: 6.5,
				pickupLongitude: 3.4,
				dropoffAddress: 'y',
				dropoffLatitude: 6.4,
				dropoffLongitude: 3.5,
				deliveryNote: 'Call on arrival',
			},
		]);
		expect(items.map((item) => item.quoteId)).toEqual([expect.any(String), expect.any(String)]);
	});

	test('a booking from the same rows and their quote IDs books the quoted routes', async () => {
		const quoted = await quote({ routeSource: 'inputFields' }, rows);
		const withQuotes = rows.map((row, index) => ({ ...row, quoteId: quoted.items[index].quoteId }));
		const { error, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create', routeSource: 'inputFields' },
			{ input: withQuotes },
		);
		expect(error).toBeUndefined();
		expect(requests.map((request) => request.status)).toEqual([201, 201]);
		expect(requests[0].body).toEqual({
			...(quoted.requests[0].body as IDataObject),
			quoteId: quoted.items[0].quoteId,
		});
	});

	test('a row missing a required field fails naming it; the others go on', async () => {
		const { result, requests } = await runAgainst(
			sandbox,
			{ resource: 'quote', operation: 'create', routeSource: 'inputFields' },
			{
				input: [rows[0], { ...rows[1], pickupLatitude: undefined }],
				settings: { onError: 'continueRegularOutput' },
			},
		);
		expect(requests).toHaveLength(1);
		expect(result.output()[1].json.error).toBe(
			'Item 2: Pickup Latitude (pickupLatitude) is required, got nothing',
		);
	});

	test('a GO_BULK quote request from a row', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{ resource: 'quoteRequest', operation: 'create', routeSource: 'inputFields' },
			{
				input: [
					{
						itemDescription: 'Cement',
						quantity: '40',
						pickupMethod: 'HUB_DROPOFF',
						pickupHubId: sandbox.hubs.active[0],
						pickupAddress: 'not for a hub end',
						dropoffMethod: 'HOME_DELIVERY',
						dropoffAddress: '5 Admiralty Way',
						sheetRow: 7,
					},
				],
			},
		);
		expect(error).toBeUndefined();
		expect(requests[0].body).toEqual({
			itemDescription: 'Cement',
			quantity: 40,
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: sandbox.hubs.active[0],
			dropoffMethod: 'HOME_DELIVERY',
			dropoffAddress: '5 Admiralty Way',
		});
	});
});
