import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';

/**
 * How a message names an item besides its number: by the order's own reference (the route's
 * External Reference), from the incoming item (a sheet row, a quote or booking echoing it) or
 * the node's Additional Fields, so a failed order in a batch is found at once.
 */
export function externalReference({ item, read }: BodyInput): string | undefined {
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const reference = item.externalReference ?? additional.externalReference;
	return typeof reference === 'string' || typeof reference === 'number'
		? `externalReference ${String(reference)}`
		: undefined;
}
