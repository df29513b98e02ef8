import type { INodeProperties } from 'n8n-workflow';

import { directRouteFields } from '../../shared/route';

export const quoteCreateDescription: INodeProperties[] = directRouteFields(
	{ resource: ['quote'], operation: ['create'] },
	false,
	'Optional fields of the quote',
);
