import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../shared/valueAt';

/** What a trigger remembers of one record between polls. */
export interface Remembered {
	/** The record's identity: its ID field's value, or the ID listed and looked up. */
	id: string;
	/** Digest of the record (or of the fields that count); NOT_FOUND for a 404. */
	digest: string;
	/** Short digest of each top-level field (or field that counts), to name what a change touched. */
	fields: Record<string, string>;
	/** The whole record, kept only with Include Previous Record. */
	record?: IDataObject;
}

/**
 * A trigger's memory, in the node's static data. `watching` is what the records belong to (watch,
 * status, ID field, fields that count): changing it starts over with a first poll. Records run
 * oldest first, by when they last entered or changed. `generation` counts writes (see overlap.ts).
 */
export interface Memory {
	version: 1;
	watching: string;
	generation?: number;
	records: Remembered[];
}

/** The memory stored for `watching`, copied; none if another's or of other shape: a first poll. */
export function recall(stored: unknown, watching: string): Memory | undefined {
	if (!isObject(stored) || stored.version !== 1 || stored.watching !== watching) return undefined;
	if (!Array.isArray(stored.records) || !stored.records.every(isRemembered)) return undefined;
	const copies = JSON.parse(JSON.stringify(stored.records)) as Remembered[];
	const records = copies.map(({ id, digest, fields, record }) =>
		isObject(record) ? { id, digest, fields, record } : { id, digest, fields },
	);
	return { version: 1, watching, records };
}

const isRemembered = (entry: unknown) =>
	isObject(entry) &&
	typeof entry.id === 'string' &&
	typeof entry.digest === 'string' &&
	isObject(entry.fields) &&
	Object.values(entry.fields).every((digest) => typeof digest === 'string');

/** How many times the stored memory was written, whatever it watches; 0 when there is none. */
export function generationOf(stored: unknown): number {
	const generation = isObject(stored) ? stored.generation : undefined;
	return Number.isInteger(generation) && (generation as number) > 0 ? (generation as number) : 0;
}

/**
 * At most `max` records, oldest first out: those this poll did not see (a record still listed that
 * was forgotten would come back as new), then, if this poll alone saw more, the oldest seen.
 */
export function bounded(
	records: Remembered[],
	seen: ReadonlySet<string>,
	max: number,
): Remembered[] {
	let excess = records.length - max;
	if (excess <= 0) return records;
	const kept = records.filter((record) => {
		if (excess > 0 && !seen.has(record.id)) {
			excess--;
			return false;
		}
		return true;
	});
	return excess > 0 ? kept.slice(excess) : kept;
}
