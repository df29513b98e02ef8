import type { INodeProperties } from 'n8n-workflow';

import { operation, operationPicker } from '../../shared/operation';
import { paymentGetDescription } from './get';

export const paymentDescription: INodeProperties[] = [
	operationPicker(
		'payment',
		[
			operation({
				name: 'Get',
				value: 'get',
				action: 'Get a payment status',
				description:
					'Look up the status of a payment by its reference, e.g. after a timeout, a retry or pending verification',
				method: 'GET',
				path: '/partner-api/payments/{reference}',
			}),
		],
		'get',
	),
	...paymentGetDescription,
];
