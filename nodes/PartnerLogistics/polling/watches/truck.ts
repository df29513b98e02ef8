import { trackingGetTrucks } from '../../resources/tracking/getAssignedTrucks';
import type { WatchSpec } from '../watch';

export const truckWatch: WatchSpec = {
	name: 'New or Changed Truck Assignment',
	value: 'truck',
	description: 'Lists the trucks assigned to your haulage quotations',
	record: 'truck',
	records: 'assigned trucks',
	operation: trackingGetTrucks,
	identity: {
		idField: {
			displayName: 'Assignment ID Field',
			name: 'assignmentIdField',
			type: 'string',
			default: 'assignmentId',
			placeholder: 'e.g. assignmentId',
			description: 'The field of an assigned truck record that identifies the assignment',
			hint: 'Inferred: the API documentation names assignmentId as the path parameter of a truck assignment but shows no record fields. Change it if yours carry their identifier in another field. Dots read nested fields.',
		},
	},
};
