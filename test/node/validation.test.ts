import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { clickRoute, rl, runAgainst } from './helpers';

// Route forms and every validation rule, through n8n's engine. A bad item must fail with a
// message naming field, value and item, and no request may reach the sandbox for it.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

const home = (side: 'pickup' | 'dropoff') => ({
	[`${side}Address`]: `${side} street 1`,
	[`${side}Latitude`]: 6.5,
	[`${side}Longitude`]: 3.4,
});
const hub = (side: 'pickup' | 'dropoff', index: number) => ({
	[`${side}Method`]: side === 'pickup' ? 'HUB_DROPOFF' : 'HUB_PICKUP',
	[`${side}HubId`]: rl(sandbox.hubs.active[index]),
});
/** The editor's numbered Stops field holding the given stops. */
const stops = (...list: INodeParameters[]): INodeParameters =>
	Object.fromEntries(list.map((entry, index) => [`stop${index + 1}`, entry]));
const stop = (type: string, n: number): INodeParameters => ({
	type,
	address: `Stop ${n}`,
	latitude: 6.5 + n / 100,
	longitude: 3.4,
});

describe('the nine request forms of the spec are accepted', () => {
	const forms: Array<[string, () => INodeParameters]> = [
		['CLICK home to home', () => ({ ...home('pickup'), ...home('dropoff') })],
		[
			'GO_LIGHT home to home',
			() => ({ serviceType: 'GO_LIGHT', ...home('pickup'), ...home('dropoff') }),
		],
		[
			'EXPRESS home to home',
			() => ({ serviceType: 'EXPRESS', packageWeightKg: 3, ...home('pickup'), ...home('dropoff') }),
		],
		[
			'CLICK multi-stop',
			() => ({
				serviceType: 'CLICK',
				orderMode: 'MULTI_STOP',
				stops: stops(stop('PICKUP', 1), stop('DROPOFF', 2), stop('DROPOFF', 3)),
			}),
		],
		[
			'GO_LIGHT home to hub',
			() => ({ serviceType: 'GO_LIGHT', ...home('pickup'), ...hub('dropoff', 0) }),
		],
		[
			'GO_LIGHT hub to home',
			() => ({ serviceType: 'GO_LIGHT', ...hub('pickup', 1), ...home('dropoff') }),
		],
		[
			'GO_LIGHT hub to hub',
			() => ({ serviceType: 'GO_LIGHT', ...hub('pickup', 1), ...hub('dropoff', 2) }),
		],
		[
			'EXPRESS home to hub',
			() => ({
				serviceType: 'EXPRESS',
				packageWeightKg: 0.01,
				...home('pickup'),
				...hub('dropoff', 0),
			}),
		],
		[
			'EXPRESS hub to home',
			() => ({
				serviceType: 'EXPRESS',
				packageWeightKg: 50,
				...hub('pickup', 2),
				...home('dropoff'),
			}),
		],
		[
			'EXPRESS hub to hub',
			() => ({
				serviceType: 'EXPRESS',
				packageWeightKg: 7,
				...hub('pickup', 0),
				...hub('dropoff', 3),
			}),
		],
	];

	test.each(forms)('%s', async (_, form) => {
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'quote',
			operation: 'create',
			...form(),
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].status).toBe(201);
		expect(items[0].quoteId).toEqual(expect.any(String));
	});
});

/**
 * Runs Quote › Create on one item whose fields come from the item itself (expressions), so
 * values the UI would not allow can be tried, and returns the error and the requests made.
 */
async function quoteWith(parameters: INodeParameters, item: IDataObject = {}) {
	return await runAgainst(
		sandbox,
		{ resource: 'quote', operation: 'create', ...parameters },
		{ input: [item] },
	);
}

describe('a bad item fails before any request, naming field, value and item', () => {
	const cases: Array<[string, INodeParameters, IDataObject, RegExp]> = [
		[
			'latitude out of bounds',
			{ ...clickRoute, pickupLatitude: '={{ $json.lat }}' },
			{ lat: 91 },
			/^Item 1: Pickup Latitude \(pickupLatitude\) must be a number between −90 and 90, got 91$/,
		],
		[
			'longitude out of bounds',
			{ ...clickRoute, dropoffLongitude: '={{ $json.lon }}' },
			{ lon: -180.5 },
			/Drop-Off Longitude \(dropoffLongitude\) must be a number between −180 and 180, got -180.5/,
		],
		[
			'coordinate that is not a number',
			{ ...clickRoute, pickupLongitude: '={{ $json.lon }}' },
			{ lon: 'east' },
			/Pickup Longitude \(pickupLongitude\) must be a number between −180 and 180, got "east"/,
		],
		[
			'missing address',
			{ ...clickRoute, pickupAddress: '={{ $json.address }}' },
			{},
			/Pickup Address \(pickupAddress\) is required, got nothing/,
		],
		[
			'weight under the minimum',
			{
				serviceType: 'EXPRESS',
				...home('pickup'),
				...home('dropoff'),
				packageWeightKg: '={{ $json.kg }}',
			},
			{ kg: 0 },
			/Package Weight \(Kg\) \(packageWeightKg\) must be a number from 0.01 to 50, got 0/,
		],
		[
			'weight over the maximum',
			{
				serviceType: 'EXPRESS',
				...home('pickup'),
				...home('dropoff'),
				packageWeightKg: '={{ $json.kg }}',
			},
			{ kg: 50.5 },
			/Package Weight \(Kg\) \(packageWeightKg\) must be a number from 0.01 to 50, got 50.5/,
		],
		[
			'two stops instead of three',
			{
				serviceType: 'CLICK',
				orderMode: 'MULTI_STOP',
				stops: stops(stop('PICKUP', 1), stop('DROPOFF', 2)),
			},
			{},
			/Stops \(stops\) must hold exactly 3 stops, got "2 stops"/,
		],
		[
			'a stop out of bounds',
			{
				serviceType: 'CLICK',
				orderMode: 'MULTI_STOP',
				stops: stops(
					stop('PICKUP', 1),
					{ ...stop('DROPOFF', 2), latitude: '={{ $json.lat }}' },
					stop('DROPOFF', 3),
				),
			},
			{ lat: -95 },
			/Stop 2 Latitude \(stops\[1\]\.latitude\) must be a number between −90 and 90, got -95/,
		],
		[
			'GO_BULK on the direct quote',
			{ ...clickRoute, serviceType: '={{ $json.service }}' },
			{ service: 'GO_BULK' },
			/Service Type \(serviceType\) GO_BULK is not booked with a direct quote, got "GO_BULK"$/,
		],
		[
			'HAUL on the direct quote',
			{ ...clickRoute, serviceType: '={{ $json.service }}' },
			{ service: 'HAUL' },
			/Service Type \(serviceType\) HAUL is not booked with a direct quote, got "HAUL"$/,
		],
		[
			'a hub method without a hub',
			{
				serviceType: 'GO_LIGHT',
				...home('pickup'),
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: rl('={{ $json.hub }}', 'id'),
			},
			{},
			/Drop-Off Hub \(dropoffHubId\) is required/,
		],
		[
			'a phone not in international format',
			{ ...clickRoute, additionalFields: { pickupPhone: '={{ $json.phone }}' } },
			{ phone: '0803 123 4567' },
			/Pickup Phone \(pickupPhone\) must be in international format: \+ then 8 to 15 digits, got "08031234567"/,
		],
		[
			'scheduledAt that is not ISO 8601',
			{ ...clickRoute, additionalFields: { scheduledAt: '={{ $json.when }}' } },
			{ when: 'tomorrow at 3' },
			/Scheduled At \(scheduledAt\) must be an ISO 8601 date-time/,
		],
		[
			'an unknown vehicle type',
			{ ...clickRoute, additionalFields: { vehicleType: '={{ $json.vehicle }}' } },
			{ vehicle: 'PLANE' },
			/Vehicle Type \(vehicleType\) must be one of BIKE, VAN, TRUCK, got "PLANE"/,
		],
	];

	test.each(cases)('%s', async (_, parameters, item, message) => {
		const { error, requests } = await quoteWith(parameters, item);
		expect(error?.message).toMatch(message);
		expect(error?.message).toMatch(/^Item 1: /);
		expect(requests).toEqual([]);
	});

	test.each([
		['GO_BULK', 'Use the Quote Request resource (manual GO_BULK quotation) instead.'],
		['HAUL', 'Use the Haulage Quotation resource (manual HAUL quotation) instead.'],
	])('%s on the direct quote: the description says where it is booked', async (service, hint) => {
		const parameters = { ...clickRoute, serviceType: '={{ $json.service }}' };
		const { error } = await quoteWith(parameters, { service });
		expect(error?.description).toBe(
			`${hint} Nothing was sent to the API for this item. Correct the value and run again.`,
		);
	});
});

test('four stops read from the item are refused before sending', async () => {
	const { error, requests } = await quoteWith(
		{ routeSource: 'inputFields' },
		{
			serviceType: 'CLICK',
			orderMode: 'MULTI_STOP',
			stops: [1, 2, 3, 4].map((n) => stop(n === 1 ? 'PICKUP' : 'DROPOFF', n)),
		},
	);
	expect(error?.message).toBe('Item 1: Stops (stops) must hold exactly 3 stops, got "4 stops"');
	expect(requests).toEqual([]);
});

test('a stop without a type is named: stops have no default type', async () => {
	const untyped = { ...stop('DROPOFF', 2), type: '' };
	const { error, requests } = await quoteWith({
		serviceType: 'CLICK',
		orderMode: 'MULTI_STOP',
		stops: stops(stop('PICKUP', 1), untyped, stop('DROPOFF', 3)),
	});
	expect(error?.message).toBe('Item 1: Stop 2 Type (stops[1].type) is required, got nothing');
	expect(requests).toEqual([]);
});

describe('payments: only what the spec allows is ever sent', () => {
	const pay = (parameters: INodeParameters) =>
		runAgainst(sandbox, {
			resource: 'booking',
			operation: 'pay',
			bookingId: 'bk_x',
			...parameters,
		});

	test('booking payment cannot be switched to CREDIT through the extra body', async () => {
		const { error, requests } = await pay({
			paymentMethodId: sandbox.savedCards.enabled,
			additionalFields: { extraBody: '{"paymentMethod": "CREDIT"}' },
		});
		expect(error?.message).toMatch(
			/Extra Body Fields \(JSON\) \(extraBody\.paymentMethod\) conflicts with the value the node sends for paymentMethod \("SAVED_CARD"\), got "CREDIT"$/,
		);
		expect(error?.description).toMatch(/^Remove it from Extra Body Fields\. Nothing was sent/);
		expect(requests).toEqual([]);
	});

	test.each([
		['an amount', '{"amount": 1000}', 'amount'],
		['a card number, nested', '{"card": {"number": "4242424242424242"}}', 'card'],
		['a provider reference', '{"meta": {"provider_reference": "x"}}', 'meta.provider_reference'],
		['a payment proof', '{"paymentProof": "receipt.png"}', 'paymentProof'],
		['a payment status', '{"status": "PAID"}', 'status'],
	])('%s is refused and never echoed', async (_, extra, field) => {
		const { error, requests } = await pay({
			paymentMethodId: sandbox.savedCards.enabled,
			additionalFields: { extraBody: extra },
		});
		expect(error?.message).toContain(`${field} must not be sent`);
		expect(error?.description).toMatch(/^Clients never send card details, amounts/);
		expect(error?.message).not.toMatch(/4242|receipt|PAID|1000/);
		expect(requests).toEqual([]);
	});

	test('SAVED_CARD needs a card ID', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{
				resource: 'quoteRequest',
				operation: 'pay',
				quoteRequestId: 'qr_x',
				paymentMethod: 'SAVED_CARD',
				paymentMethodId: '={{ $json.card }}',
			},
			{ input: [{}] },
		);
		expect(error?.message).toMatch(/Saved Card ID \(paymentMethodId\) is required with SAVED_CARD/);
		expect(requests).toEqual([]);
	});

	test('an unknown payment method is refused', async () => {
		const { error } = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'pay',
			quotationId: 'hq_x',
			paymentMethod: '={{ "CASH" }}',
			paymentMethodId: 'pm_1',
		});
		expect(error?.message).toMatch(
			/Payment Method \(paymentMethod\) must be one of SAVED_CARD, CREDIT, got "CASH"/,
		);
	});
});

describe('other bodies', () => {
	test('haulage shipment details must be a JSON object', async () => {
		const { error, requests } = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'create',
			shipmentDetails: '={{ "not json" }}',
		});
		expect(error?.message).toBe(
			'Item 1: Shipment Details (JSON) (shipmentDetails) must be valid JSON (error at character 2)',
		);
		expect(requests).toEqual([]);
	});

	test('a GO_BULK quantity must be a whole number of at least 1', async () => {
		const { error, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			quantity: '={{ 0 }}',
		});
		expect(error?.message).toMatch(
			/Quantity \(quantity\) must be a whole number of at least 1, got 0/,
		);
		expect(requests).toEqual([]);
	});

	test('a path id that resolves to nothing is named', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{ resource: 'payment', operation: 'get', reference: '={{ $json.reference }}' },
			{ input: [{}] },
		);
		expect(error?.message).toMatch(/^Item 1: Payment Reference \(reference\) is required/);
		expect(requests).toEqual([]);
	});

	test.each([
		['..', 'booking', 'pay', 'bookingId', 'Booking ID'],
		['.', 'booking', 'pay', 'bookingId', 'Booking ID'],
		[' .. ', 'supportCase', 'close', 'caseId', 'Case ID'],
	])(
		'a path id of %p would reach another endpoint: refused, nothing sent',
		async (id, resource, operation, field, label) => {
			const { error, requests } = await runAgainst(
				sandbox,
				{
					resource,
					operation,
					[field]: `={{ $json.${field} }}`,
					paymentMethodId: 'pm_card_a_api',
					note: 'Delivered',
				},
				{ input: [{ [field]: id }] },
			);
			expect(error?.message).toBe(
				`Item 1: ${label} (${field}) cannot be "." or "..": the request would reach another endpoint of the API, got "${id}"`,
			);
			expect(error?.description).toBe(
				'Nothing was sent to the API for this item. Correct the value and run again.',
			);
			expect(requests.map((request) => request.path)).not.toContain(
				resource === 'booking' ? '/partner-api/payment' : '/partner-api/close',
			);
			expect(requests.filter((request) => !request.path.includes('bk_ok'))).toEqual([]);
		},
	);

	test.each([
		['a/b', '/partner-api/payments/a%2Fb'],
		['x?y=1', '/partner-api/payments/x%3Fy%3D1'],
		['#f', '/partner-api/payments/%23f'],
	])('a path id of %p reaches its own path, encoded', async (reference, path) => {
		const { error, requests } = await runAgainst(
			sandbox,
			{ resource: 'payment', operation: 'get', reference },
			{ input: [{}] },
		);
		expect(requests.map((request) => [request.path, request.status])).toEqual([[path, 404]]);
		expect(error?.message).toMatch(/Not found in your organization \(404\)/);
	});
});

describe('Booking › Create checks the route against its quote', () => {
	let quote: IDataObject;
	beforeAll(async () => {
		quote = (await quoteWith(clickRoute)).items[0];
	});

	test('a defined route that differs from the incoming quote is stopped', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{
				resource: 'booking',
				operation: 'create',
				routeSource: 'define',
				...clickRoute,
				dropoffLatitude: 6.5,
			},
			{ input: [quote] },
		);
		expect(error?.message).toMatch(
			/^Item 1: Drop-Off Latitude \(dropoffLatitude\) differs from the route the quote was priced for \(quoted: 6.4474\)/,
		);
		expect(requests).toEqual([]);
	});

	test('a defined route equal to the quote books', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create', routeSource: 'define', ...clickRoute },
			{ input: [quote] },
		);
		expect(error).toBeUndefined();
		expect(requests[0].status).toBe(201);
	});

	test('without a quote item, the default route source says what to do', async () => {
		const { error, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create', quoteId: 'qt_1' },
			{ input: [{ orderId: 7 }] },
		);
		expect(error?.message).toMatch(
			/Quoted Route \(quotedRoute\) is missing from the input item, got nothing$/,
		);
		expect(error?.description).toMatch(/^Put this node right after Quote › Create/);
		expect(requests).toEqual([]);
	});

	test('a quote ID that is not the incoming quote is stopped', async () => {
		const { error } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create', quoteId: 'qt_other' },
			{ input: [quote] },
		);
		expect(error?.message).toMatch(/Quote ID \(quoteId\) is not the quote of the input item/);
	});
});

test('with Continue On Fail, the good items still go through', async () => {
	const { result, requests } = await runAgainst(
		sandbox,
		{ resource: 'quote', operation: 'create', ...clickRoute, pickupLatitude: '={{ $json.lat }}' },
		{
			input: [{ lat: 6.5 }, { lat: 123 }, { lat: -6.5 }],
			settings: { onError: 'continueRegularOutput' },
		},
	);
	expect(result.error()).toBeUndefined();
	const items = result.output();
	expect(items).toHaveLength(3);
	expect(items[0].json.quoteId).toEqual(expect.any(String));
	expect(items[1].json).toMatchObject({
		error: expect.stringMatching(/^Item 2: Pickup Latitude \(pickupLatitude\)/),
	});
	expect(items[2].json.quoteId).toEqual(expect.any(String));
	expect(requests.map((request) => (request.body as IDataObject).pickupLatitude)).toEqual([
		6.5, -6.5,
	]);
});

test('with failures sent to the error output, each good item still names its input item', async () => {
	const { result } = await runAgainst(
		sandbox,
		{ resource: 'quote', operation: 'create', ...clickRoute, pickupLatitude: '={{ $json.lat }}' },
		{
			input: [{ lat: 95 }, { lat: 6.5 }, { lat: -6.5 }],
			settings: { onError: 'continueErrorOutput' },
		},
	);
	const good = result.output();
	expect(good.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
	expect(good.map((item) => item.json.quotedRoute)).toEqual([
		expect.objectContaining({ pickupLatitude: 6.5 }),
		expect.objectContaining({ pickupLatitude: -6.5 }),
	]);
});
