import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';

/** An item's External Reference (its own or Additional Fields'), to find a failed order at once. */
export function externalReference({ item, read }: BodyInput): string | undefined {
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const reference = item.externalReference ?? additional.externalReference;
	return typeof reference === 'string' || typeof reference === 'number'
		? `externalReference ${String(reference)}`
		: undefined;
}
