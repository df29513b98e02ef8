import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PartnerLogistics } from '../../nodes/PartnerLogistics/PartnerLogistics.node';

// What the editor shows: n8n's own NodeHelpers decide which parameters are displayed for the
// values chosen so far, exactly as the node panel does.

const { description } = new PartnerLogistics();

function shown(values: INodeParameters): string[] {
	const node = { parameters: values, typeVersion: 1 } as INode;
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		values,
		true,
		false,
		node,
		description,
	);
	// Options and Request Options (a node setting) are on every operation.
	return Object.keys(parameters ?? {}).filter(
		(name) => !['resource', 'operation', 'options', 'requestOptions'].includes(name),
	);
}

/** Every property, those inside collections and fixed collections included. */
const everyProperty = (properties: INodeProperties[]): INodeProperties[] =>
	properties.flatMap((property) => [
		property,
		...(property.options ?? []).flatMap((option) =>
			'values' in option
				? everyProperty(option.values)
				: 'displayName' in option && 'type' in option
					? everyProperty([option as INodeProperties])
					: [],
		),
	]);

const quote = (values: INodeParameters) =>
	shown({ resource: 'quote', operation: 'create', ...values });
const pickupHome = ['pickupAddress', 'pickupLatitude', 'pickupLongitude'];
const dropoffHome = ['dropoffAddress', 'dropoffLatitude', 'dropoffLongitude'];

describe('Quote › Create shows only the fields of the chosen route form', () => {
	test.each([
		[
			'CLICK, single drop-off',
			{ serviceType: 'CLICK' },
			['serviceType', 'orderMode', ...pickupHome, ...dropoffHome],
		],
		[
			'CLICK, multi-stop',
			{ serviceType: 'CLICK', orderMode: 'MULTI_STOP' },
			['serviceType', 'orderMode', 'stops'],
		],
		[
			'GO_LIGHT home to home',
			{ serviceType: 'GO_LIGHT' },
			[
				'serviceType',
				'deliveryMode',
				'pickupMethod',
				...pickupHome,
				'dropoffMethod',
				...dropoffHome,
			],
		],
		[
			'GO_LIGHT hub to hub',
			{ serviceType: 'GO_LIGHT', pickupMethod: 'HUB_DROPOFF', dropoffMethod: 'HUB_PICKUP' },
			[
				'serviceType',
				'deliveryMode',
				'pickupMethod',
				'pickupHubId',
				'dropoffMethod',
				'dropoffHubId',
			],
		],
		[
			'EXPRESS home to hub',
			{ serviceType: 'EXPRESS', dropoffMethod: 'HUB_PICKUP' },
			[
				'serviceType',
				'packageWeightKg',
				'pickupMethod',
				...pickupHome,
				'dropoffMethod',
				'dropoffHubId',
			],
		],
		[
			'EXPRESS hub to home',
			{ serviceType: 'EXPRESS', pickupMethod: 'HUB_DROPOFF' },
			[
				'serviceType',
				'packageWeightKg',
				'pickupMethod',
				'pickupHubId',
				'dropoffMethod',
				...dropoffHome,
			],
		],
	])('%s', (_, values, expected) => {
		expect(quote(values).sort()).toEqual([...expected, 'routeSource', 'additionalFields'].sort());
	});
});

test('Booking › Create asks only for the quote by default, the route when defined', () => {
	expect(shown({ resource: 'booking', operation: 'create' }).sort()).toEqual(
		['quoteId', 'routeSource', 'additionalFields'].sort(),
	);
	expect(
		shown({
			resource: 'booking',
			operation: 'create',
			routeSource: 'define',
			serviceType: 'EXPRESS',
		}),
	).toEqual(expect.arrayContaining(['quoteId', 'serviceType', 'packageWeightKg', 'pickupMethod']));
});

test('payments: no CREDIT for bookings, a card only with SAVED_CARD, a stage for haulage', () => {
	expect(shown({ resource: 'booking', operation: 'pay' })).toEqual([
		'bookingId',
		'paymentMethodId',
		'additionalFields',
	]);
	expect(shown({ resource: 'quoteRequest', operation: 'pay', paymentMethod: 'CREDIT' })).toEqual([
		'quoteRequestId',
		'paymentMethod',
	]);
	expect(shown({ resource: 'haulageQuotation', operation: 'pay' })).toEqual([
		'quotationId',
		'paymentMethod',
		'paymentMethodId',
		'paymentStage',
	]);
});

test('every operation has an action label and a description; inferred paths say so', () => {
	const pickers = description.properties.filter((property) => property.name === 'operation');
	expect(pickers).toHaveLength(8);
	const operations = pickers.flatMap((picker) => picker.options as INodePropertyOptions[]);
	expect(operations).toHaveLength(24);
	for (const operation of operations) {
		expect(operation.action).toMatch(/^[A-Z][a-z]/);
		expect(operation.description).toEqual(expect.any(String));
	}
	const inferred = operations.filter((operation) =>
		String(operation.description).includes('Path not in the published API documentation'),
	);
	expect(inferred.map((operation) => operation.value).sort()).toEqual(
		['accept', 'acceptCredit', 'create', 'decline', 'get', 'get', 'get'].sort(),
	);
});

test('every field a user fills in has a description, hint or placeholder', () => {
	const walk = (properties: INodeProperties[]): INodeProperties[] =>
		properties.flatMap((property) => [
			property,
			...walk(
				(
					(property.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>
				).flatMap((option) =>
					option.values ? walk(option.values) : 'type' in option ? [option] : [],
				),
			),
		]);
	const fields = walk(description.properties);
	const silent = fields
		.filter(
			(field) =>
				!['resource', 'operation'].includes(field.name) &&
				!['options', 'notice'].includes(field.type),
		)
		.filter((field) => !field.description && !field.hint && !field.placeholder)
		.map((field) => field.name);
	expect(silent).toEqual([]);
});

test('Map From Input Fields hides the route form and lists the names it reads', () => {
	for (const [resource, names] of [
		['quote', ['serviceType', 'pickupLatitude', 'stops', 'externalReference']],
		['booking', ['serviceType', 'pickupLatitude', 'stops', 'externalReference']],
		['quoteRequest', ['itemDescription', 'quantity', 'pickupHubId']],
	] as const) {
		const fields = shown({ resource, operation: 'create', routeSource: 'inputFields' });
		expect(fields).not.toContain('pickupAddress');
		expect(fields).not.toContain('serviceType');
		expect(fields).toContain('inputFieldsNotice');
		const notice = description.properties.find(
			(property) =>
				property.name === 'inputFieldsNotice' &&
				(property.displayOptions?.show?.resource as string[]).includes(resource),
		);
		for (const name of names) expect(notice?.displayName).toContain(name);
	}
});

test('an untouched route form holds no number: coordinates and weight start empty', () => {
	const values = NodeHelpers.getNodeParameters(
		description.properties,
		{ resource: 'quote', operation: 'create', serviceType: 'EXPRESS' },
		true,
		false,
		{ parameters: {}, typeVersion: 1 } as INode,
		description,
	) as INodeParameters;
	for (const name of ['pickupLatitude', 'pickupLongitude', 'dropoffLatitude', 'dropoffLongitude']) {
		expect(values[name]).toBe('');
	}
	expect(values.packageWeightKg).toBe('');
	const goLight = NodeHelpers.getNodeParameters(
		description.properties,
		{ resource: 'quote', operation: 'create', serviceType: 'GO_LIGHT' },
		true,
		false,
		{ parameters: {}, typeVersion: 1 } as INode,
		description,
	) as INodeParameters;
	expect(goLight.deliveryMode).toBe('');
});

test('multi-stop has exactly three numbered stop slots, each without a default type', () => {
	const stops = description.properties.find(
		(property) => property.name === 'stops' && property.type === 'fixedCollection',
	)!;
	expect(stops.typeOptions?.multipleValues).toBeFalsy();
	const slots = stops.options as Array<{
		name: string;
		displayName: string;
		values: INodeProperties[];
	}>;
	expect(slots.map((slot) => slot.displayName)).toEqual(['Stop 1', 'Stop 2', 'Stop 3']);
	for (const slot of slots) {
		expect(slot.values.find((value) => value.name === 'type')?.default).toBe('');
	}
	expect(stops.hint).toMatch(/exactly 3 stops/);
});

test('canvas subtitles are words, not raw values', () => {
	const words = JSON.parse(/(\{".*\})\[/.exec(String(description.subtitle))![1]) as Record<
		string,
		string
	>;
	expect(words['quote:create']).toBe('Create Quote');
	expect(words['hub:getAll']).toBe('Get Many Hubs');
	expect(words['booking:pay']).toBe('Pay Booking');
	expect(Object.keys(words)).toHaveLength(24);
});

test('the canvas subtitle says so while Options › Dry Run is on', () => {
	const code = /^=\{\{([\s\S]*)\}\}$/.exec(String(description.subtitle))![1];
	const subtitle = (parameters: IDataObject) =>
		new Function('$parameter', `return ${code}`)(parameters) as string;
	expect(subtitle({ resource: 'booking', operation: 'pay', options: {} })).toBe('Pay Booking');
	expect(subtitle({ resource: 'booking', operation: 'pay' })).toBe('Pay Booking');
	expect(subtitle({ resource: 'booking', operation: 'pay', options: { dryRun: true } })).toBe(
		'Dry run: Pay Booking',
	);
	expect(subtitle({ resource: 'booking', operation: 'pay', options: { dryRun: false } })).toBe(
		'Pay Booking',
	);
	const byExpression = { dryRun: '={{ $json.preview }}' };
	expect(subtitle({ resource: 'booking', operation: 'pay', options: byExpression })).toBe(
		'Dry run by expression: Pay Booking',
	);
});

test("every ID field reads the incoming item's field of the same name by default", () => {
	const ids = [
		'quoteId',
		'bookingId',
		'quoteRequestId',
		'quotationId',
		'reference',
		'assignmentId',
		'tripId',
		'caseId',
	];
	for (const name of ids) {
		const fields = description.properties.filter((property) => property.name === name);
		expect(fields.length).toBeGreaterThan(0);
		for (const field of fields) {
			expect(field.default).toBe(`={{ $json.${name} }}`);
			expect(field.hint).toContain(`incoming item's ${name} field`);
		}
	}
});

test('no parameter asks n8n to convert its value: the pipeline reads stored values as they are', () => {
	// pipeline/parameters.ts takes a value without an expression as stored, and batches expressions;
	// n8n's getNodeParameter would differ only by converting values of a `validateType`.
	const converted = everyProperty(description.properties).filter(
		(property) => property.validateType,
	);
	expect(converted.map((property) => property.name)).toEqual([]);
});
