import type { INodeProperties } from 'n8n-workflow';

import { additionalFields, optionsField, textField } from '../descriptions/fields';
import { coordinateFields, endFields, ENDS } from './ends';
import { numberField } from './numbers';
import { routeSourceFields } from './routeSource';

// A direct quote or booking's route form (the spec's nine request forms), then its optional fields.

const PHONE_EXAMPLE = '+234 803 123 4567';

export const STOP_SLOTS = ['stop1', 'stop2', 'stop3'];

/** The values of one stop of a multi-stop order, numbered as the route runs. */
const stopValues = (place: string): INodeProperties[] => [
	optionsField('type', 'Type', 'Whether the parcel is collected or delivered at this stop', [
		['Choose…', '', 'Required: pick up or drop off here'],
		['Drop-Off', 'DROPOFF'],
		['Pickup', 'PICKUP'],
	]),
	textField('address', 'Address', `Street address of ${place}`, ENDS.pickup.example),
	...coordinateFields(place),
	textField(
		'phone',
		'Phone',
		'Optional contact at the stop, in international format',
		PHONE_EXAMPLE,
	),
];

/** The direct services, priced by the API at once (GO_BULK and HAUL are quoted by hand). */
export const SERVICES = {
	CLICK: 'Home to home, or one multi-stop order with exactly 3 stops',
	GO_LIGHT: 'Multi-leg service; each end may be a home address or a hub',
	EXPRESS: 'Multi-leg service priced by package weight; each end may be a home or a hub',
};

const hubServices = { displayOptions: { show: { serviceType: ['GO_LIGHT', 'EXPRESS'] } } };

const routeFields: INodeProperties[] = [
	optionsField(
		'serviceType',
		'Service Type',
		'The delivery service to price and book',
		Object.entries(SERVICES).map(([value, description]) => [value, value, description]),
		{
			hint: 'GO_BULK and HAUL are quoted by hand: use the Quote Request or Haulage Quotation resource',
		},
	),
	optionsField(
		'orderMode',
		'Order Mode',
		'Whether this CLICK order has one drop-off or several stops',
		[
			['Single Drop-Off', 'SINGLE', 'One pickup address, one drop-off address'],
			['Multi-Stop', 'MULTI_STOP', 'Exactly 3 stops, each a pickup or a drop-off'],
		],
		{ displayOptions: { show: { serviceType: ['CLICK'] } } },
	),
	optionsField(
		'deliveryMode',
		'Delivery Mode',
		'How fast GO_LIGHT delivers',
		[
			['API Default', '', 'Send no delivery mode and let the API choose'],
			['Express', 'EXPRESS'],
			['Standard', 'STANDARD'],
		],
		{ displayOptions: { show: { serviceType: ['GO_LIGHT'] } } },
	),
	{
		...numberField(
			'packageWeightKg',
			'Package Weight (Kg)',
			'Weight of the package in kilograms; EXPRESS is priced by it',
			'2.5',
			(says) => `Required for EXPRESS: ${says}`,
		),
		// Not required: n8n would refuse to run a workflow whose Service Type is an expression (it
		// cannot tell whether the field shows). The item fails with the rule instead.
		displayOptions: { show: { serviceType: ['EXPRESS'] } },
	},
	...endFields('pickup', hubServices, true),
	...endFields('dropoff', hubServices, true),
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

const phone = (side: 'pickup' | 'dropoff', at: string) =>
	textField(
		`${side}Phone`,
		`${at} Phone`,
		`Phone number at the ${at.toLowerCase()}`,
		PHONE_EXAMPLE,
		{ hint: `International format, e.g. ${PHONE_EXAMPLE}; spaces and dashes are removed` },
	);

/** Optional quote and booking fields (spec: direct booking quote request). */
const routeOptionFields: INodeProperties[] = [
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
	optionsField('vehicleType', 'Vehicle Type', 'The vehicle to use', [
		['Bike', 'BIKE'],
		['Van', 'VAN'],
		['Truck', 'TRUCK'],
	]),
];

/** The route fields a booking must repeat from its quote (spec: Booking), in form order. */
export const ROUTE_FIELDS = routeFields.map((field) => field.name);
export const ROUTE_OPTION_FIELDS = routeOptionFields.map((field) => field.name);

export const directRouteFields = (fromQuote: boolean, additionalDescription: string) =>
	routeSourceFields(
		fromQuote,
		routeFields,
		[...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS],
		additionalFields(routeOptionFields, additionalDescription),
	);
