import type { ResourceSpec } from '../../shared/operation';

export const hubResource: ResourceSpec = {
	displayName: 'Hub',
	value: 'hub',
	description: 'The active hubs, for hub drop-off and hub pickup routes',
	defaultOperation: 'getAll',
	operations: [
		{
			name: 'Get Many',
			value: 'getAll',
			subtitle: 'Get Many Hubs',
			action: 'Get many hubs',
			description: 'List the active hubs, whose IDs are used for hub drop-off and hub pickup',
			method: 'GET',
			path: '/partner-api/hubs',
			list: true,
		},
	],
	fields: [],
};
