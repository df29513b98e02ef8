import type { INodeProperties } from 'n8n-workflow';

import { quotationIdField } from './shared';

export const haulageQuotationGetDescription: INodeProperties[] = [quotationIdField('get')];
