import type { INodeProperties } from 'n8n-workflow';

import { idField } from '../../shared/descriptions';

export const paymentGetDescription: INodeProperties[] = [
	idField(
		'reference',
		'Payment Reference',
		{ resource: ['payment'], operation: ['get'] },
		'The reference a payment initiation returned',
		'pay_123',
	),
];
