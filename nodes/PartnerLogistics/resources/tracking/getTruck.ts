import { idField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';

export const trackingGetTruck: OperationSpec = {
	name: 'Get Truck',
	value: 'getTruck',
	action: 'Get the tracking of a truck assignment',
	description: 'Tracking of one truck assignment',
	fields: [
		idField(
			'assignmentId',
			'Assignment ID',
			'The truck assignment to track, from Get Trucks',
			'as_123',
		),
	],
	method: 'GET',
	path: '/partner-api/haulage/tracking/trucks/{assignmentId}',
};
