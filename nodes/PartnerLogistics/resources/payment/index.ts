import type { ResourceSpec } from '../../shared/operation';
import { paymentGetDescription } from './get';

export const paymentResource: ResourceSpec = {
	displayName: 'Payment',
	value: 'payment',
	description: 'The status of a payment, by its reference',
	defaultOperation: 'get',
	operations: [
		{
			name: 'Get',
			value: 'get',
			subtitle: 'Get Payment Status',
			action: 'Get a payment status',
			description:
				'Look up the status of a payment by its reference, e.g. after a timeout, a retry or pending verification',
			method: 'GET',
			path: '/partner-api/payments/{reference}',
		},
	],
	fields: paymentGetDescription,
};
