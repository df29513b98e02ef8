import type { INodeProperties } from 'n8n-workflow';

import { extraBodyCollection, quotationIdField } from './shared';

export const haulageQuotationAcceptCreditDescription: INodeProperties[] = [
	quotationIdField('acceptCredit'),
	extraBodyCollection('acceptCredit'),
];
