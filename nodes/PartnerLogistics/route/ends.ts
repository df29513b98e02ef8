import type { INodeProperties } from 'n8n-workflow';

import { numberField } from './numbers';

// One end of a route (how it is served; its address, coordinates or hub), for the direct route
// form and the GO_BULK form alike.

/** The method that serves an end at a hub: the sender drops off, the receiver picks up. */
const HUB_METHOD = { pickup: 'HUB_DROPOFF', dropoff: 'HUB_PICKUP' };

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
		{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. hub_123' },
	],
	displayOptions: { show: { [`${side}Method`]: [HUB_METHOD[side]] } },
});

export const coordinateFields = (
	name: (axis: 'Latitude' | 'Longitude') => string,
	label: string,
	place: string,
): INodeProperties[] =>
	(['Latitude', 'Longitude'] as const).map((axis) =>
		numberField({
			displayName: label ? `${label} ${axis}` : axis,
			name: name(axis),
			placeholder: axis === 'Latitude' ? 'e.g. 6.6018' : 'e.g. 3.3515',
			description: `${axis} of ${place}, in decimal degrees`,
		}),
	);

export const homeFields = (side: 'pickup' | 'dropoff'): INodeProperties[] => {
	const where = side === 'pickup' ? 'Pickup' : 'Drop-Off';
	const displayOptions = {
		hide: { [`${side}Method`]: [HUB_METHOD[side]], orderMode: ['MULTI_STOP'] },
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
