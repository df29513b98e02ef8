import type { INodeProperties } from 'n8n-workflow';

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

/** Latitude and longitude of a place, with the spec's bounds. */
const coordinateFields = (
	name: (axis: 'Latitude' | 'Longitude') => string,
	label: string,
	place: string,
): INodeProperties[] =>
	(['Latitude', 'Longitude'] as const).map((axis) => {
		const limit = axis === 'Latitude' ? 90 : 180;
		return {
			displayName: label ? `${label} ${axis}` : axis,
			name: name(axis),
			type: 'number',
			typeOptions: { minValue: -limit, maxValue: limit, numberPrecision: 6 },
			default: 0,
			placeholder: axis === 'Latitude' ? 'e.g. 6.6018' : 'e.g. 3.3515',
			description: `${axis} of ${place}, -${limit} to ${limit}`,
		};
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

/** How one end of the route is served: at an address or at a hub. */
export const methodField = (side: 'pickup' | 'dropoff'): INodeProperties =>
	side === 'pickup'
		? {
				displayName: 'Pickup Method',
				name: 'pickupMethod',
				type: 'options',
				options: [
					{ name: 'Home Pickup', value: 'HOME_PICKUP', description: 'Collected at an address' },
					{
						name: 'Hub Drop-Off',
						value: 'HUB_DROPOFF',
						description: 'The sender drops it at a hub',
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
					{ name: 'Home Delivery', value: 'HOME_DELIVERY', description: 'Delivered to an address' },
					{
						name: 'Hub Pickup',
						value: 'HUB_PICKUP',
						description: 'The receiver collects it at a hub',
					},
				],
				default: 'HOME_DELIVERY',
				description: 'How the shipment ends its journey',
			};

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
			{ name: 'Standard', value: 'STANDARD' },
			{ name: 'Express', value: 'EXPRESS' },
		],
		default: 'STANDARD',
		description: 'How fast GO_LIGHT delivers',
		displayOptions: { show: { serviceType: ['GO_LIGHT'] } },
	},
	{
		displayName: 'Package Weight (Kg)',
		name: 'packageWeightKg',
		type: 'number',
		typeOptions: { minValue: 0.01, maxValue: 50, numberPrecision: 2 },
		default: 1,
		required: true,
		placeholder: 'e.g. 2.5',
		description: 'Weight of the package in kilograms, 0.01 to 50; EXPRESS is priced by it',
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
		typeOptions: { multipleValues: true, sortable: true, maxAllowedFields: 3 },
		default: {},
		placeholder: 'Add Stop',
		description: 'The stops of the order, in route order',
		hint: 'Add exactly 3 stops',
		displayOptions: { show: { serviceType: ['CLICK'], orderMode: ['MULTI_STOP'] } },
		options: [
			{
				displayName: 'Stop',
				name: 'stop',
				values: [
					{
						displayName: 'Address',
						name: 'address',
						type: 'string',
						default: '',
						placeholder: 'e.g. 12 Allen Avenue, Ikeja, Lagos',
						description: 'Street address of the stop',
					},
					...coordinateFields((axis) => axis.toLowerCase(), '', 'the stop'),
					{
						displayName: 'Phone',
						name: 'phone',
						type: 'string',
						default: '',
						placeholder: 'e.g.	+234 803 123 4567',
						description: 'Optional contact at the stop, in international format',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{
								name: 'Pickup',
								value: 'PICKUP',
							},
							{
								name: 'Drop-Off',
								value: 'DROPOFF',
							},
						],
						default: 'DROPOFF',
						description: 'Whether the parcel is collected or delivered at this stop',
					},
				],
			},
		],
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
