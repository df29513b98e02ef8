import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { hasOwn, isObject, valueAt } from '../shared/valueAt';

/** What a poll saw of one record: the record, or for a listed ID answered 404, the message. */
export type Observed = { id: string; record: IDataObject } | { id: string; notFound: string };

/** One output item, as docs/triggers.md describes it (`current`: the records as they are now). */
export type Change = {
	change: 'new' | 'changed' | 'current' | 'notFound';
	recordId: string;
	changedFields: string[];
	record: IDataObject;
	previous?: IDataObject;
	/** `notFound`: the API's 404, in words. */
	message?: string;
};

/** What a trigger remembers of a record: digests of it (or NOT_FOUND) and of each of its fields. */
export interface Remembered {
	id: string;
	digest: string;
	fields: Record<string, string>;
	/** The whole record, kept only with Include Previous Record. */
	record?: IDataObject;
}

/** A trigger's memory, in the node's static data; records oldest first, by last entry or change. */
export interface Memory {
	version: 1;
	/** What the records belong to (watch, status, ID field, counted fields); a change starts over. */
	watching: string;
	/** Counts writes (overlap.ts). */
	generation?: number;
	records: Remembered[];
}

export interface CompareOptions {
	watching: string;
	maxRecords: number;
	emitCurrentState: boolean;
	includePrevious: boolean;
	/** The fields whose changes count (Changes That Count), or undefined for the whole record. */
	fields?: string[];
}

/** How a listed ID the API cannot find is remembered: no digest of a record can equal it. */
const NOT_FOUND = 'notFound';

/**
 * The changes to emit and the memory to keep: a first poll emits only 404s (`current` if asked);
 * `unread` IDs keep their memory. Changed records go last; `maxRecords` are kept.
 */
export function compare(
	memory: Memory | undefined,
	observed: Observed[],
	options: CompareOptions,
	unread: string[] = [],
): { changes: Change[]; memory: Memory } {
	const known = new Map((memory?.records ?? []).map((entry) => [entry.id, entry]));
	const seen = new Map<string, IDataObject | undefined>(unread.map((id) => [id, undefined]));
	const touched = new Map<string, Remembered>();
	const changes: Change[] = [];
	for (const seenNow of observed) {
		const { id } = seenNow;
		if (seen.has(id)) continue;
		const record = 'record' in seenNow ? seenNow.record : undefined;
		seen.set(id, record);
		const before = known.get(id);
		const part = record && counted(record, options.fields);
		const entry: Remembered = part
			? { id, digest: recordDigest(part), fields: fieldDigests(part) }
			: { id, digest: NOT_FOUND, fields: {} };
		if (record && options.includePrevious) entry.record = record;
		if (before?.digest === entry.digest) continue;
		touched.set(id, entry);
		// What an earlier poll saw of it: nothing on a first poll, nor of an ID not found.
		const was = memory && before?.digest !== NOT_FOUND ? before : undefined;
		const item: Change = {
			change: !record ? 'notFound' : !memory ? 'current' : was ? 'changed' : 'new',
			recordId: id,
			changedFields: record && was ? changedFields(was.fields, entry.fields) : [],
			record: record ?? {},
		};
		if (options.includePrevious && record && was?.record) item.previous = was.record;
		if ('notFound' in seenNow) item.message = seenNow.notFound;
		if (item.change !== 'current' || options.emitCurrentState) changes.push(item);
	}
	// An unchanged record is kept whole with Include Previous Record (this poll's, if just on).
	const untouched = (memory?.records ?? [])
		.filter((entry) => !touched.has(entry.id))
		.map(({ record, ...entry }) => {
			const whole = options.includePrevious ? (record ?? seen.get(entry.id)) : undefined;
			return whole ? { ...entry, record: whole } : entry;
		});
	const records = bounded([...untouched, ...touched.values()], seen, options.maxRecords);
	return { changes, memory: { version: 1, watching: options.watching, records } };
}

export function counted(record: IDataObject, fields: string[] | undefined): IDataObject {
	if (!fields) return record;
	const values = fields.map((field) => [field, valueAt(record, field)] as const);
	return Object.fromEntries(values.filter(([, value]) => value !== undefined)) as IDataObject;
}

/** The fields whose digest differs: the record's own fields in order, then the removed ones. */
function changedFields(before: Record<string, string>, after: Record<string, string>): string[] {
	const changed = (field: string) => !hasOwn(before, field) || before[field] !== after[field];
	const removed = Object.keys(before).filter((field) => !hasOwn(after, field));
	return [...Object.keys(after).filter(changed), ...removed];
}

/** JSON with object fields sorted by name, so the API's field order never counts; a list's does. */
export function canonicalJson(value: unknown): string {
	const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : 1);
	const sorted = (_: string, field: unknown) =>
		isObject(field) ? Object.fromEntries(Object.entries(field).sort(byName)) : field;
	return JSON.stringify(value, sorted) ?? 'undefined';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export const recordDigest = (record: IDataObject) => sha256(canonicalJson(record));

/** A digest of each top-level field, short to store, enough to tell which fields changed. */
export function fieldDigests(record: IDataObject): Record<string, string> {
	const digest = (field: string) => sha256(canonicalJson(record[field])).slice(0, 12);
	return Object.fromEntries(Object.keys(record).map((field) => [field, digest(field)]));
}

/** The memory stored for `watching`, copied; none if another's or of other shape: a first poll. */
export function recall(stored: unknown, watching: string): Memory | undefined {
	if (!isObject(stored) || stored.version !== 1 || stored.watching !== watching) return undefined;
	if (!Array.isArray(stored.records) || !stored.records.every(isRemembered)) return undefined;
	return { version: 1, watching, records: JSON.parse(JSON.stringify(stored.records)) };
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
export function bounded(records: Remembered[], seen: { has(id: string): boolean }, max: number) {
	if (records.length <= max) return records;
	const unseen = new Set(records.filter(({ id }) => !seen.has(id)).slice(0, records.length - max));
	return records.filter((record) => !unseen.has(record)).slice(-max);
}
