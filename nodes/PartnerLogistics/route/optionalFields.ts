import type { INodeProperties } from 'n8n-workflow';

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
