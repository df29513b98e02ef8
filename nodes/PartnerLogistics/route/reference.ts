import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';

/**
 * Names an item by its order's External Reference, from the incoming item or Additional Fields,
 * so a failed order in a batch is found at once.
 */
export function externalReference({ item, read }: BodyInput): string | undefined {
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const reference = item.externalReference ?? additional.externalReference;
	return typeof reference === 'string' || typeof reference === 'number'
		? `externalReference ${String(reference)}`
		: undefined;
}
