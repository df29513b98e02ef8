import type { INodeProperties } from 'n8n-workflow';

import type { OperationSpec } from '../../pipeline/operation';
import { compact } from '../../pipeline/problem';
import { numberOf } from '../../route/numbers';

/** A case's status, as the list filters by it; the polling trigger's watch says more. */
export const caseStatus: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'string',
	default: 'OPEN',
	placeholder: 'e.g. OPEN',
	description: 'Only cases with this status',
	hint: 'OPEN is the status the API documentation names; any other status the API knows can be typed',
};

const fields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		hint: 'Pages are followed only when the API reveals a next-page cursor; otherwise one call returns what the API gives',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		hint: 'A whole number of at least 1',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [caseStatus],
	},
];

export const supportCaseGetMany: OperationSpec = {
	name: 'Get Many',
	value: 'getAll',
	subtitle: 'Get Many Support Cases',
	capability: 'support:read',
	action: 'Get many support cases',
	description: 'List support cases, e.g. the OPEN ones (needs the support:read capability)',
	fields,
	method: 'GET',
	path: '/partner-api/support-cases',
	list: true,
	query: (read) =>
		compact({
			status: read('filters.status'),
			limit: read('returnAll') === true ? undefined : numberOf(read('limit'), 'limit'),
		}),
};
