import { idField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';

export const trackingGetTrip: OperationSpec = {
	name: 'Get Trip',
	value: 'getTrip',
	subtitle: 'Get Trip',
	action: 'Get a haulage trip',
	description: 'Trip information for one haulage trip',
	fields: [idField('tripId', 'Trip ID', 'The haulage trip', 'trip_123')],
	method: 'GET',
	path: '/partner-api/haulage/trips/{tripId}',
};
