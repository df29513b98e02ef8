import type { INodeProperties } from 'n8n-workflow';

import { paymentFields } from '../../shared/descriptions';
import { quotationIdField } from './shared';

export const haulageQuotationPayDescription: INodeProperties[] = [
	quotationIdField('pay'),
	...paymentFields(
		{ resource: ['haulageQuotation'], operation: ['pay'] },
		{ credit: true, stage: true },
	),
];
