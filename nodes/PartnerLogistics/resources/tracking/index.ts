import type { ResourceSpec } from '../../shared/operation';
import { trackingGetTripDescription } from './getTrip';
import { trackingGetTruckDescription } from './getTruck';

export const trackingResource: ResourceSpec = {
	displayName: 'Tracking',
	value: 'tracking',
	description: 'Where HAUL trucks and trips are',
	defaultOperation: 'getTrucks',
	operations: [
		{
			name: 'Get Trip',
			value: 'getTrip',
			subtitle: 'Get Trip',
			action: 'Get a haulage trip',
			description: 'Trip information for one haulage trip',
			method: 'GET',
			path: '/partner-api/haulage/trips/{tripId}',
		},
		{
			name: 'Get Truck',
			value: 'getTruck',
			subtitle: 'Get Truck Tracking',
			action: 'Get the tracking of a truck assignment',
			description: 'Tracking of one truck assignment',
			method: 'GET',
			path: '/partner-api/haulage/tracking/trucks/{assignmentId}',
		},
		{
			name: 'Get Trucks',
			value: 'getTrucks',
			subtitle: 'Get Assigned Trucks',
			action: 'Get assigned trucks',
			description: 'The trucks assigned to your haulage quotations, one item per truck',
			method: 'GET',
			path: '/partner-api/haulage/tracking/trucks',
			list: true,
		},
	],
	fields: [...trackingGetTruckDescription, ...trackingGetTripDescription],
};
