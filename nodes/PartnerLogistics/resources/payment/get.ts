import { idField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';

export const paymentGet: OperationSpec = {
	name: 'Get',
	value: 'get',
	subtitle: 'Get Payment Status',
	action: 'Get a payment status',
	description:
		'Look up the status of a payment by its reference, e.g. after a timeout, a retry or pending verification',
	fields: [
		idField(
			'reference',
			'Payment Reference',
			'The reference a payment initiation returned',
			'pay_123',
		),
	],
	method: 'GET',
	path: '/partner-api/payments/{reference}',
};
