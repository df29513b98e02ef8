import type { INodeProperties } from 'n8n-workflow';

import { extraBodyCollection, quotationIdField } from './shared';

export const haulageQuotationDeclineDescription: INodeProperties[] = [
	quotationIdField('decline'),
	extraBodyCollection('decline'),
];
