import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ROUTE_OPTION_FIELDS, STOP_SLOTS } from './routeBody';
import { DEFINE, FROM_QUOTE, INPUT_FIELDS } from './routeRequest';
import { ROUTE_FIELDS } from './validate';

/**
 * The route of a direct quote or booking, walking the user through the spec's nine request forms:
 * service type first, then (CLICK) single drop-off or multi-stop, else (GO_LIGHT, EXPRESS) how the
 * parcel is picked up and delivered. Only the fields the chosen form needs are shown. Quote ›
 * Create and Booking › Create spread these with their own displayOptions.
 */

export const hubPicker = (side: 'pickup' | 'dropoff', label: string): INodeProperties => ({
	displayName: label,
	name: `${side}HubId`,
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		side === 'pickup'
			? 'The hub where the sender drops the parcel off'
			: 'The hub where the receiver collects the parcel',
	hint: 'Only active hubs are listed. Switch to ID to use an expression, e.g. from Hub › Get Many.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a hub...',
			typeOptions: { searchListMethod: 'searchHubs', searchable: true },
		},
		{
			displayName: 'ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. hub_123',
		},
	],
	displayOptions: {
		show: { [`${side}Method`]: [side === 'pickup' ? 'HUB_DROPOFF' : 'HUB_PICKUP'] },
	},
});

/**
 * A number the user must give, as text: empty until set, so nothing is sent that nobody typed,
 * and never clamped by the editor (typing 120 into a bounded number field leaves 12). A value
 * out of range fails the item with the rule, which the hint shows beforehand.
 */
export const numberField = (
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'placeholder'>,
	rule: string,
): INodeProperties => ({
	...field,
	type: 'string',
	default: '',
	hint: rule,
});

/** Latitude and longitude of a place, with the spec's bounds. */
const coordinateFields = (
	name: (axis: 'Latitude' | 'Longitude') => string,
	label: string,
	place: string,
): INodeProperties[] =>
	(['Latitude', 'Longitude'] as const).map((axis) => {
		const limit = axis === 'Latitude' ? 90 : 180;
		return numberField(
			{
				displayName: label ? `${label} ${axis}` : axis,
				name: name(axis),
				placeholder: axis === 'Latitude' ? 'e.g. 6.6018' : 'e.g. 3.3515',
				description: `${axis} of ${place}, in decimal degrees`,
			},
			`A number from −${limit} to ${limit}`,
		);
	});

export const homeFields = (side: 'pickup' | 'dropoff'): INodeProperties[] => {
	const where = side === 'pickup' ? 'Pickup' : 'Drop-Off';
	// Hidden for the hub method and for multi-stop orders, shown for every home form.
	const displayOptions = {
		hide: {
			[`${side}Method`]: [side === 'pickup' ? 'HUB_DROPOFF' : 'HUB_PICKUP'],
			orderMode: ['MULTI_STOP'],
		},
	};
	return [
		{
			displayName: `${where} Address`,
			name: `${side}Address`,
			type: 'string',
			default: '',
			required: true,
			placeholder:
				side === 'pickup'
					? 'e.g. 12 Allen Avenue, Ikeja, Lagos'
					: 'e.g. 5 Admiralty Way, Lekki, Lagos',
			description: `Street address where the parcel is ${side === 'pickup' ? 'collected' : 'delivered'}`,
			displayOptions,
		},
		...coordinateFields(
			(axis) => `${side}${axis}`,
			where,
			`the ${where.toLowerCase()} address`,
		).map((field) => ({ ...field, required: true, displayOptions })),
	];
};

/** How one end of the route is served; the option names say who goes where. */
export const methodField = (side: 'pickup' | 'dropoff'): INodeProperties =>
	side === 'pickup'
		? {
				displayName: 'Pickup Method',
				name: 'pickupMethod',
				type: 'options',
				options: [
					{
						name: 'Courier Collects at an Address',
						value: 'HOME_PICKUP',
						description: 'HOME_PICKUP: the parcel is collected at the pickup address',
					},
					{
						name: 'Sender Brings It to a Hub',
						value: 'HUB_DROPOFF',
						description: 'HUB_DROPOFF: the sender drops the parcel off at a hub',
					},
				],
				default: 'HOME_PICKUP',
				description: 'How the shipment starts its journey',
			}
		: {
				displayName: 'Drop-Off Method',
				name: 'dropoffMethod',
				type: 'options',
				options: [
					{
						name: 'Courier Delivers to an Address',
						value: 'HOME_DELIVERY',
						description: 'HOME_DELIVERY: the parcel is delivered to the drop-off address',
					},
					{
						name: 'Receiver Collects at a Hub',
						value: 'HUB_PICKUP',
						description: 'HUB_PICKUP: the receiver collects the parcel at a hub',
					},
				],
				default: 'HOME_DELIVERY',
				description: 'How the shipment ends its journey',
			};

/** The values of one stop of a multi-stop order, numbered as the route runs. */
const stopValues = (place: string): INodeProperties[] => [
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: [
			{ name: 'Choose…', value: '', description: 'Required: pick up or drop off here' },
			{ name: 'Drop-Off', value: 'DROPOFF' },
			{ name: 'Pickup', value: 'PICKUP' },
		],
		default: '',
		description: 'Whether the parcel is collected or delivered at this stop',
	},
	{
		displayName: 'Address',
		name: 'address',
		type: 'string',
		default: '',
		placeholder: 'e.g. 12 Allen Avenue, Ikeja, Lagos',
		description: `Street address of ${place}`,
	},
	...coordinateFields((axis) => axis.toLowerCase(), '', place),
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		placeholder: 'e.g. +234 803 123 4567',
		description: 'Optional contact at the stop, in international format',
	},
];

export const routeFields: INodeProperties[] = [
	{
		displayName: 'Service Type',
		name: 'serviceType',
		type: 'options',
		options: [
			{
				name: 'CLICK',
				value: 'CLICK',
				description: 'Home to home, or one multi-stop order with exactly 3 stops',
			},
			{
				name: 'GO_LIGHT',
				value: 'GO_LIGHT',
				description: 'Multi-leg service; each end may be a home address or a hub',
			},
			{
				name: 'EXPRESS',
				value: 'EXPRESS',
				description: 'Multi-leg service priced by package weight; each end may be a home or a hub',
			},
		],
		default: 'CLICK',
		description: 'The delivery service to price and book',
		hint: 'GO_BULK and HAUL are quoted by hand: use the Quote Request or Haulage Quotation resource',
	},
	{
		displayName: 'Order Mode',
		name: 'orderMode',
		type: 'options',
		options: [
			{
				name: 'Single Drop-Off',
				value: 'SINGLE',
				description: 'One pickup address, one drop-off address',
			},
			{
				name: 'Multi-Stop',
				value: 'MULTI_STOP',
				description: 'Exactly 3 stops, each a pickup or a drop-off',
			},
		],
		default: 'SINGLE',
		description: 'Whether this CLICK order has one drop-off or several stops',
		displayOptions: { show: { serviceType: ['CLICK'] } },
	},
	{
		displayName: 'Delivery Mode',
		name: 'deliveryMode',
		type: 'options',
		options: [
			{
				name: 'API Default',
				value: '',
				description: 'Send no delivery mode and let the API choose',
			},
			{ name: 'Express', value: 'EXPRESS' },
			{ name: 'Standard', value: 'STANDARD' },
		],
		default: '',
		description: 'How fast GO_LIGHT delivers',
		displayOptions: { show: { serviceType: ['GO_LIGHT'] } },
	},
	{
		...numberField(
			{
				displayName: 'Package Weight (Kg)',
				name: 'packageWeightKg',
				placeholder: 'e.g. 2.5',
				description: 'Weight of the package in kilograms; EXPRESS is priced by it',
			},
			'Required for EXPRESS: a number from 0.01 to 50',
		),
		// Not marked required: n8n would then refuse to run a workflow whose Service Type is an
		// expression (it cannot tell whether the field shows). The item fails with the rule instead.
		displayOptions: { show: { serviceType: ['EXPRESS'] } },
	},
	{ ...methodField('pickup'), displayOptions: { show: { serviceType: ['GO_LIGHT', 'EXPRESS'] } } },
	...homeFields('pickup'),
	hubPicker('pickup', 'Pickup Hub'),
	{ ...methodField('dropoff'), displayOptions: { show: { serviceType: ['GO_LIGHT', 'EXPRESS'] } } },
	...homeFields('dropoff'),
	hubPicker('dropoff', 'Drop-Off Hub'),
	{
		displayName: 'Stops',
		name: 'stops',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Stop',
		description: 'The 3 stops of the order, in route order',
		hint: 'A multi-stop order has exactly 3 stops: add Stop 1, Stop 2 and Stop 3',
		displayOptions: { show: { serviceType: ['CLICK'], orderMode: ['MULTI_STOP'] } },
		options: STOP_SLOTS.map((name, index) => ({
			displayName: `Stop ${index + 1}`,
			name,
			values: stopValues(`stop ${index + 1}`),
		})),
	},
];

const phoneHint = 'International format, e.g. +234 803 123 4567; spaces and dashes are removed';

/** Optional quote and booking fields (spec: direct booking quote request). */
export const routeOptionFields: INodeProperties[] = [
	{
		displayName: 'Delivery Note',
		name: 'deliveryNote',
		type: 'string',
		default: '',
		placeholder: 'e.g. Call on arrival',
		description: 'Instructions for the rider',
	},
	{
		displayName: 'Drop-Off Phone',
		name: 'dropoffPhone',
		type: 'string',
		default: '',
		placeholder: 'e.g. +234 803 123 4567',
		description: 'Phone number at the drop-off',
		hint: phoneHint,
	},
	{
		displayName: 'External Reference',
		name: 'externalReference',
		type: 'string',
		default: '',
		placeholder: 'e.g. ORDER-10045',
		description: 'Your own reference, e.g. an order number',
	},
	{
		displayName: 'Package Description',
		name: 'packageDescription',
		type: 'string',
		default: '',
		placeholder: 'e.g. Two boxes of books',
		description: 'What is being sent',
	},
	{
		displayName: 'Pickup Phone',
		name: 'pickupPhone',
		type: 'string',
		default: '',
		placeholder: 'e.g. +234 803 123 4567',
		description: 'Phone number at the pickup',
		hint: phoneHint,
	},
	{
		displayName: 'Promo Code',
		name: 'promoCode',
		type: 'string',
		default: '',
		placeholder: 'e.g. WELCOME10',
		description: 'A promotion code to apply',
	},
	{
		displayName: 'Recipient Name',
		name: 'recipientName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ada Obi',
		description: 'Who receives the parcel',
	},
	{
		displayName: 'Requester Name',
		name: 'requesterName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Tunde Bakare',
		description: 'Who requests the delivery',
	},
	{
		displayName: 'Scheduled At',
		name: 'scheduledAt',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-11-23T14:30:00+01:00',
		description: 'When the pickup should happen, as an ISO 8601 date-time; sent as given',
		hint: 'Include the time zone offset, e.g. +01:00, or use {{ $now.plus(1, "hour").toISO() }}',
	},
	{
		displayName: 'Vehicle Type',
		name: 'vehicleType',
		type: 'options',
		options: [
			{ name: 'Bike', value: 'BIKE' },
			{ name: 'Van', value: 'VAN' },
			{ name: 'Truck', value: 'TRUCK' },
		],
		default: 'BIKE',
		description: 'The vehicle to use',
	},
];

/** Where the route of a quote, booking or quote request comes from. */
export const routeSourceField = (fromQuote: boolean): INodeProperties => {
	const defaultSource = fromQuote ? FROM_QUOTE : DEFINE;
	return {
		displayName: 'Route',
		name: 'routeSource',
		type: 'options',
		noDataExpression: true,
		options: [
			...(fromQuote
				? [
						{
							name: 'Same as the Incoming Quote',
							value: FROM_QUOTE,
							description:
								'Send the route the incoming Quote › Create item was priced for (its quotedRoute)',
						},
					]
				: []),
			{
				name: 'Define Below',
				value: DEFINE,
				description: fromQuote
					? 'Enter the route again, or map it with expressions; it must match the quoted route'
					: 'Fill in the fields, or map them from the input with expressions',
			},
			{
				name: 'Map From Input Fields',
				value: INPUT_FIELDS,
				description:
					'Read the route from fields of the incoming item named as in the API, e.g. a sheet or CSV of orders',
			},
		],
		default: defaultSource,
		description: fromQuote
			? 'The API books only the exact route that was quoted'
			: 'Type the route, or read it from the incoming items',
	};
};

/** What Map From Input Fields reads, shown in the form so nobody has to guess the names. */
export const inputFieldsNotice = (fields: string[]): INodeProperties => ({
	displayName: `Each incoming item is read for these fields, under these exact names: ${fields.join(', ')}. Other fields of the item are not sent. A missing or out-of-range value fails that item with the rule; fields set under Additional Fields replace the item's.`,
	name: 'inputFieldsNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { routeSource: [INPUT_FIELDS] } },
});

/**
 * A direct quote or booking's route, for the operation shown by `show`: where it comes from, the
 * names Map From Input Fields reads, the form for Define Below, and the optional fields.
 */
export function directRouteFields(
	show: NonNullable<IDisplayOptions['show']>,
	fromQuote: boolean,
	additionalFieldsDescription: string,
): INodeProperties[] {
	return [
		...updateDisplayOptions({ show }, [
			routeSourceField(fromQuote),
			inputFieldsNotice([...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS]),
		]),
		...updateDisplayOptions({ show: { ...show, routeSource: [DEFINE] } }, routeFields),
		...updateDisplayOptions({ show }, [
			{
				displayName: 'Additional Fields',
				name: 'additionalFields',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				description: additionalFieldsDescription,
				options: routeOptionFields,
			},
		]),
	];
}
