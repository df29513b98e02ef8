import type { INodeProperties } from 'n8n-workflow';

import { operation, operationPicker } from '../../shared/operation';

export const hubDescription: INodeProperties[] = [
	operationPicker(
		'hub',
		[
			operation({
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many hubs',
				description: 'List the active hubs, whose IDs are used for hub drop-off and hub pickup',
				method: 'GET',
				path: '/partner-api/hubs',
			}),
		],
		'getAll',
	),
];
