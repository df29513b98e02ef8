import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	inputFieldsNotice,
	routeFields,
	routeOptionFields,
	routeSourceField,
} from '../../shared/route';
import { ROUTE_OPTION_FIELDS } from '../../shared/routeBody';
import { DEFINE } from '../../shared/routeRequest';
import { ROUTE_FIELDS } from '../../shared/validate';

const showOnlyForQuoteCreate = { resource: ['quote'], operation: ['create'] };

export const quoteCreateDescription: INodeProperties[] = [
	...updateDisplayOptions({ show: showOnlyForQuoteCreate }, [
		routeSourceField(false),
		inputFieldsNotice([...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS]),
	]),
	...updateDisplayOptions(
		{ show: { ...showOnlyForQuoteCreate, routeSource: [DEFINE] } },
		routeFields,
	),
	...updateDisplayOptions({ show: showOnlyForQuoteCreate }, [
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: routeOptionFields,
		},
	]),
];
