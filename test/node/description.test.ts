import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
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
	return Object.keys(parameters ?? {}).filter(
		(name) => !['resource', 'operation', 'options'].includes(name),
	);
}

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
		expect(quote(values).sort()).toEqual([...expected, 'additionalFields'].sort());
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
		String(operation.description).includes('Path not in the published API spec'),
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
		.filter((field) => !['resource', 'operation'].includes(field.name) && field.type !== 'options')
		.filter((field) => !field.description && !field.hint && !field.placeholder)
		.map((field) => field.name);
	expect(silent).toEqual([]);
});
