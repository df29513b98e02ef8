import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routeFields, routeOptionFields } from '../../shared/route';

const showOnlyForQuoteCreate = { resource: ['quote'], operation: ['create'] };

export const quoteCreateDescription: INodeProperties[] = updateDisplayOptions(
	{ show: showOnlyForQuoteCreate },
	[
		...routeFields,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: routeOptionFields,
		},
	],
);
