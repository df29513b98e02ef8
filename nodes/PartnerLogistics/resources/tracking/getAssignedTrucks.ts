import type { OperationSpec } from '../../pipeline/operation';

export const trackingGetTrucks: OperationSpec = {
	name: 'Get Trucks',
	value: 'getTrucks',
	subtitle: 'Get Assigned Trucks',
	action: 'Get assigned trucks',
	description: 'The trucks assigned to your haulage quotations, one item per truck',
	method: 'GET',
	path: '/partner-api/haulage/tracking/trucks',
	list: true,
};
