import type { INodeProperties } from 'n8n-workflow';

import { optionsField, textField } from '../descriptions/fields';
import { numberField } from './numbers';

export type Side = 'pickup' | 'dropoff';
export const SIDES: Side[] = ['pickup', 'dropoff'];

/** How each end is served, at an address (the default) or at a hub, and the words for it. */
export const ENDS = {
	pickup: {
		label: 'Pickup',
		home: 'HOME_PICKUP',
		hub: 'HUB_DROPOFF',
		options: ['Courier Collects at an Address', 'Sender Brings It to a Hub'],
		done: 'collected',
		atHome: 'the parcel is collected at the pickup address',
		atHub: 'the sender drops the parcel off',
		journey: 'starts',
		example: '12 Allen Avenue, Ikeja, Lagos',
	},
	dropoff: {
		label: 'Drop-Off',
		home: 'HOME_DELIVERY',
		hub: 'HUB_PICKUP',
		options: ['Courier Delivers to an Address', 'Receiver Collects at a Hub'],
		done: 'delivered',
		atHome: 'the parcel is delivered to the drop-off address',
		atHub: 'the receiver collects the parcel',
		journey: 'ends',
		example: '5 Admiralty Way, Lekki, Lagos',
	},
};

/** The latitude and longitude of `place`: an end's, or (no `side`) a stop's. */
export const coordinateFields = (place: string, side?: Side): INodeProperties[] =>
	(['Latitude', 'Longitude'] as const).map((axis) =>
		numberField(
			side ? `${side}${axis}` : axis.toLowerCase(),
			side ? `${ENDS[side].label} ${axis}` : axis,
			`${axis} of ${place}, in decimal degrees`,
			axis === 'Latitude' ? '6.6018' : '3.3515',
		),
	);

/** One end's fields, for the direct and GO_BULK forms: its method (`method` added), home or hub. */
export function endFields(
	side: Side,
	method: Partial<INodeProperties>,
	required: boolean,
): INodeProperties[] {
	const { label, home, hub, options, done, atHome, atHub, journey, example } = ENDS[side];
	const atAddress = {
		required,
		displayOptions: { hide: { [`${side}Method`]: [hub], orderMode: ['MULTI_STOP'] } },
	};
	return [
		optionsField(
			`${side}Method`,
			`${label} Method`,
			`How the shipment ${journey} its journey`,
			[
				[options[0], home, `${home}: ${atHome}`],
				[options[1], hub, `${hub}: ${atHub} at a hub`],
			],
			method,
		),
		textField(
			`${side}Address`,
			`${label} Address`,
			`Street address where the parcel is ${done}`,
			example,
			atAddress,
		),
		...coordinateFields(`the ${label.toLowerCase()} address`, side).map((field) => ({
			...field,
			...atAddress,
		})),
		{
			displayName: `${label} Hub`,
			name: `${side}HubId`,
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: true,
			description: `The hub where ${atHub}`,
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
			displayOptions: { show: { [`${side}Method`]: [hub] } },
		},
	];
}
