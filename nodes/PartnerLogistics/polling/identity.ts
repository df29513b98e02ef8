import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../shared/valueAt';
import type { Observed } from './changes';

/** An identity as text: a non-empty string or a finite number; anything else is none. */
function identityOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/**
 * Each record with its identity, read from `field`. Of records sharing an identity, the first
 * counts. A record without one stops everything (its position in the answer, from 1, and its field
 * names are returned): a change could not be told from a new record.
 */
export function identify(
	records: IDataObject[],
	field: string,
): { observed: Observed[] } | { unidentified: { position: number; fields: string[] } } {
	const observed: Observed[] = [];
	const ids = new Set<string>();
	for (const [index, record] of records.entries()) {
		const id = identityOf(valueAt(record, field));
		if (id === undefined) {
			return { unidentified: { position: index + 1, fields: Object.keys(record) } };
		}
		if (ids.has(id)) continue;
		ids.add(id);
		observed.push({ id, record });
	}
	return { observed };
}

/**
 * The IDs a user listed: a list (from an expression) or text separated by commas, semicolons,
 * spaces or new lines; trimmed, empty ones and repeats left out, in their order.
 */
export function listedIds(value: unknown): string[] {
	const parts: unknown[] = Array.isArray(value)
		? value.flat()
		: typeof value === 'string' || typeof value === 'number'
			? String(value).split(/[\s,;]+/)
			: [];
	const ids = parts
		.filter((part) => typeof part === 'string' || typeof part === 'number')
		.map((part) => String(part).trim())
		.filter((part) => part !== '');
	return [...new Set(ids)];
}
