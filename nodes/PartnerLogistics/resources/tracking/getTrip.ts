import type { INodeProperties } from 'n8n-workflow';

import { idField } from '../../shared/descriptions';

export const trackingGetTripDescription: INodeProperties[] = [
	idField(
		'tripId',
		'Trip ID',
		{ resource: ['tracking'], operation: ['getTrip'] },
		'The haulage trip',
		'trip_123',
	),
];
