import type { INodeProperties } from 'n8n-workflow';

import { idField } from '../../shared/descriptions';

export const trackingGetTruckDescription: INodeProperties[] = [
	idField(
		'assignmentId',
		'Assignment ID',
		{ resource: ['tracking'], operation: ['getTruck'] },
		'The truck assignment to track, from Get Trucks',
		'as_123',
	),
];
