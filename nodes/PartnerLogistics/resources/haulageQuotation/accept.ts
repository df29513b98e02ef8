import type { INodeProperties } from 'n8n-workflow';

import { extraBodyCollection, quotationIdField } from './shared';

export const haulageQuotationAcceptDescription: INodeProperties[] = [
	quotationIdField('accept'),
	extraBodyCollection('accept'),
];
