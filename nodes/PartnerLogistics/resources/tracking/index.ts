import type { INodeProperties } from 'n8n-workflow';

import { operation, operationPicker } from '../../shared/operation';
import { trackingGetTripDescription } from './getTrip';
import { trackingGetTruckDescription } from './getTruck';

export const trackingDescription: INodeProperties[] = [
	operationPicker(
		'tracking',
		[
			operation({
				name: 'Get Trip',
				value: 'getTrip',
				action: 'Get a haulage trip',
				description: 'Trip information for one haulage trip',
				method: 'GET',
				path: '/partner-api/haulage/trips/{tripId}',
			}),
			operation({
				name: 'Get Truck',
				value: 'getTruck',
				action: 'Get the tracking of a truck assignment',
				description: 'Tracking of one truck assignment',
				method: 'GET',
				path: '/partner-api/haulage/tracking/trucks/{assignmentId}',
			}),
			operation({
				name: 'Get Trucks',
				value: 'getTrucks',
				action: 'Get assigned trucks',
				description: 'The trucks assigned to your haulage quotations, one item per truck',
				method: 'GET',
				path: '/partner-api/haulage/tracking/trucks',
			}),
		],
		'getTrucks',
	),
	...trackingGetTruckDescription,
	...trackingGetTripDescription,
];
