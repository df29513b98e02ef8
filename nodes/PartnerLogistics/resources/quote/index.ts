import type { ResourceSpec } from '../../pipeline/operation';
import { quoteCreate } from './create';

export const quoteResource: ResourceSpec = {
	displayName: 'Quote',
	value: 'quote',
	description: 'Price a CLICK, GO_LIGHT or EXPRESS delivery before booking it',
	defaultOperation: 'create',
	operations: [quoteCreate],
};
