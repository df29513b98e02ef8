import type { INodeProperties } from 'n8n-workflow';

const showOnlyForCaseGetMany = { resource: ['supportCase'], operation: ['getAll'] };

export const supportCaseGetManyDescription: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		hint: 'Pages are followed only when the API reveals a next-page cursor; otherwise one call returns what the API gives',
		displayOptions: { show: showOnlyForCaseGetMany },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...showOnlyForCaseGetMany, returnAll: [false] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: showOnlyForCaseGetMany },
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: 'OPEN',
				placeholder: 'e.g. OPEN',
				description: 'Only cases with this status',
				hint: 'OPEN is the status the API documentation names; any other status the API knows can be typed',
			},
		],
	},
];
