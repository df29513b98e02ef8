import type { ResourceSpec } from '../../pipeline/operation';
import { hubGetMany } from './getAll';

export const hubResource: ResourceSpec = {
	displayName: 'Hub',
	value: 'hub',
	description: 'The active hubs, for hub drop-off and hub pickup routes',
	defaultOperation: 'getAll',
	operations: [hubGetMany],
};
