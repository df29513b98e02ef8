import type { ResourceSpec } from '../../pipeline/operation';
import { paymentGet } from './get';

export const paymentResource: ResourceSpec = {
	displayName: 'Payment',
	value: 'payment',
	description: 'The status of a payment, by its reference',
	defaultOperation: 'get',
	operations: [paymentGet],
};
