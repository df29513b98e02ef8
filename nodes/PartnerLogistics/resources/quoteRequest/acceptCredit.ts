import type { INodeProperties } from 'n8n-workflow';

import { extraBodyField } from '../../shared/descriptions';
import { quoteRequestIdField } from './shared';

export const quoteRequestAcceptCreditDescription: INodeProperties[] = [
	quoteRequestIdField('acceptCredit'),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['quoteRequest'], operation: ['acceptCredit'] } },
		options: [extraBodyField],
	},
];
