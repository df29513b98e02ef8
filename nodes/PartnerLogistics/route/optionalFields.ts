import type { INodeProperties } from 'n8n-workflow';

import { textField } from '../descriptions/fields';

/** How a phone is typed: international format (rules.ts), spaces and dashes allowed. */
export const PHONE_EXAMPLE = '+234 803 123 4567';

const phone = (side: 'pickup' | 'dropoff', at: string) =>
	textField(
		`${side}Phone`,
		`${at} Phone`,
		`Phone number at the ${at.toLowerCase()}`,
		'+234 803 123 4567',
		{
			hint: 'International format, e.g. +234 803 123 4567; spaces and dashes are removed',
		},
	);

/** Optional quote and booking fields (spec: direct booking quote request). */
export const routeOptionFields: INodeProperties[] = [
	textField('deliveryNote', 'Delivery Note', 'Instructions for the rider', 'Call on arrival'),
	phone('dropoff', 'Drop-Off'),
	textField(
		'externalReference',
		'External Reference',
		'Your own reference, e.g. an order number',
		'ORDER-10045',
	),
	textField(
		'packageDescription',
		'Package Description',
		'What is being sent',
		'Two boxes of books',
	),
	phone('pickup', 'Pickup'),
	textField('promoCode', 'Promo Code', 'A promotion code to apply', 'WELCOME10'),
	textField('recipientName', 'Recipient Name', 'Who receives the parcel', 'Ada Obi'),
	textField('requesterName', 'Requester Name', 'Who requests the delivery', 'Tunde Bakare'),
	textField(
		'scheduledAt',
		'Scheduled At',
		'When the pickup should happen, as an ISO 8601 date-time; sent as given',
		'2026-11-23T14:30:00+01:00',
		{
			hint: 'Include the time zone offset, e.g. +01:00, or use {{ $now.plus(1, "hour").toISO() }}',
		},
	),
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
