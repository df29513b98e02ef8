import type { INodeProperties } from 'n8n-workflow';

import { paymentFields } from '../../shared/descriptions';
import { quoteRequestIdField } from './shared';

export const quoteRequestPayDescription: INodeProperties[] = [
	quoteRequestIdField('pay'),
	...paymentFields(
		{ resource: ['quoteRequest'], operation: ['pay'] },
		{ credit: true, stage: false },
	),
];
