import type { OperationSpec } from '../../pipeline/operation';

export const hubGetMany: OperationSpec = {
	name: 'Get Many',
	value: 'getAll',
	subtitle: 'Get Many Hubs',
	action: 'Get many hubs',
	description: 'List the active hubs, whose IDs are used for hub drop-off and hub pickup',
	method: 'GET',
	path: '/partner-api/hubs',
	list: true,
};
