import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { hasOwn, valueAt } from '../shared/valueAt';
import { bounded, type Memory, type Remembered } from './memory';

/** What a poll saw of one record: the record, or for a listed ID answered 404, the message. */
export type Observed = { id: string; record: IDataObject } | { id: string; notFound: string };

/**
 * One output item. `change`: `new` (first seen since the trigger started watching), `changed` (its
 * content differs from the last poll that saw it), `current` (the first poll's records with Emit
 * Current State on First Poll; Fetch Test Event's) or `notFound` (a listed ID answered 404, once).
 */
export interface Change {
	change: 'new' | 'changed' | 'current' | 'notFound';
	recordId: string;
	/** The fields added, removed or changed (of those that count); empty unless `changed`. */
	changedFields: string[];
	/** The record as the API answered it; empty for `notFound`. */
	record: IDataObject;
	/** `changed` with Include Previous Record: the record as the previous poll saw it. */
	previous?: IDataObject;
	/** `notFound`: the API's 404, in words. */
	message?: string;
}

/** How a poll compares: the trigger's Options of these names, and `watching` (see Memory). */
export interface CompareOptions {
	watching: string;
	maxRecords: number;
	emitCurrentState: boolean;
	includePrevious: boolean;
	/** The fields whose changes count (Changes That Count), or undefined for the whole record. */
	fields?: string[];
}

/** How a listed ID the API cannot find is remembered: no digest of a record can equal it. */
export const NOT_FOUND = 'notFound';

/**
 * The changes to emit and the memory to keep, from one poll and the memory before: none on a first
 * poll, which only learns (emitting `current` if asked), but a 404 on any poll. A change is judged
 * on the whole record's digest or the fields that count, never a field we guessed. `unread` IDs
 * keep their memory (their change comes later). Changed records go last; `maxRecords` are kept.
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
		const entry = record ? remembered(id, record, options) : { id, digest: NOT_FOUND, fields: {} };
		if (before?.digest === entry.digest) continue;
		touched.set(id, entry);
		if (!record) {
			changes.push(currentChange(seenNow));
		} else if (!memory) {
			if (options.emitCurrentState) changes.push(change('current', id, record));
		} else if (!before || before.digest === NOT_FOUND) {
			changes.push(change('new', id, record));
		} else {
			changes.push({
				...change('changed', id, record, changedFields(before.fields, entry.fields)),
				...(options.includePrevious && before.record ? { previous: before.record } : {}),
			});
		}
	}
	const untouched = (memory?.records ?? [])
		.filter((entry) => !touched.has(entry.id))
		.map((entry) => withRecord(entry, options.includePrevious, seen.get(entry.id)));
	const records = bounded(
		[...untouched, ...touched.values()],
		new Set(seen.keys()),
		options.maxRecords,
	);
	return { changes, memory: { version: 1, watching: options.watching, records } };
}

/** The part of a record whose changes count: the whole record, or the fields named. */
export function counted(record: IDataObject, fields: string[] | undefined): IDataObject {
	if (!fields) return record;
	return Object.fromEntries(
		fields
			.map((field) => [field, valueAt(record, field)] as const)
			.filter(([, value]) => value !== undefined),
	) as IDataObject;
}

function remembered(id: string, record: IDataObject, options: CompareOptions): Remembered {
	const part = counted(record, options.fields);
	const entry: Remembered = { id, digest: recordDigest(part), fields: fieldDigests(part) };
	if (options.includePrevious) entry.record = record;
	return entry;
}

/** An unchanged record's memory: whole with Include Previous Record (this poll's, if just on). */
function withRecord(entry: Remembered, keep: boolean, seenNow?: IDataObject): Remembered {
	const { record, ...rest } = entry;
	const whole = keep ? (record ?? seenNow) : undefined;
	return whole === undefined ? rest : { ...rest, record: whole };
}

/** A record as it is now (`current`), or a listed ID the API answers 404 for. */
export function currentChange(seen: Observed): Change {
	return 'record' in seen
		? change('current', seen.id, seen.record)
		: { ...change('notFound', seen.id, {}), message: seen.notFound };
}

function change(
	kind: Change['change'],
	recordId: string,
	record: IDataObject,
	changed: string[] = [],
): Change {
	return { change: kind, recordId, changedFields: changed, record };
}

/** The fields whose digest differs: the record's own fields in order, then the removed ones. */
export function changedFields(
	before: Record<string, string>,
	after: Record<string, string>,
): string[] {
	const changed = (field: string) => !hasOwn(before, field) || before[field] !== after[field];
	const removed = Object.keys(before).filter((field) => !hasOwn(after, field));
	return [...Object.keys(after).filter(changed), ...removed];
}

/** JSON with object fields sorted by name, so the API's field order never counts; a list's does. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sorted(value)) ?? 'undefined';
}

function sorted(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sorted);
	if (!value || typeof value !== 'object') return value;
	const object = value as IDataObject;
	const names = Object.keys(object).sort();
	return Object.fromEntries(names.map((name) => [name, sorted(object[name])]));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export function recordDigest(record: IDataObject): string {
	return sha256(canonicalJson(record));
}

/** A digest of each top-level field, short to store, enough to tell which fields changed. */
export function fieldDigests(record: IDataObject): Record<string, string> {
	const digest = (field: string) => sha256(canonicalJson(record[field])).slice(0, 12);
	return Object.fromEntries(Object.keys(record).map((field) => [field, digest(field)]));
}
