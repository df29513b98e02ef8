import { fieldDigests, recordDigest, type JsonObject } from './digest';
import { bounded, type Memory, type Remembered } from './memory';

/** A record as one poll saw it, with its identity. */
export interface Observed {
	id: string;
	record: JsonObject;
}

/**
 * One output item. `change` is what a workflow branches on: `new` (first seen since the trigger
 * started watching), `changed` (its content differs from the last poll that saw it) or `current`
 * (the first poll's records, when Emit Current State on First Poll is on; and Fetch Test Event's).
 */
export interface Change {
	change: 'new' | 'changed' | 'current';
	recordId: string;
	/** Top-level fields added, removed or changed; empty unless `change` is `changed`. */
	changedFields: string[];
	record: JsonObject;
	/** The record as the previous poll saw it: `changed` only, with Include Previous Record on. */
	previous?: JsonObject;
}

export interface CompareOptions {
	/** What the records belong to (see Memory). */
	watching: string;
	/** Max Records Remembered. */
	maxRecords: number;
	/** Emit Current State on First Poll. */
	emitCurrentState: boolean;
	/** Include Previous Record: keep whole records, to hand the previous one with a change. */
	includePrevious: boolean;
}

/**
 * Compares one poll's records with the memory of the polls before (none on a first poll) and
 * returns the changes to emit and the memory to keep. Whether a record changed is judged on its
 * whole content (a digest of the whole JSON), never on a field such as a status or a timestamp.
 * A first poll only learns the records, and emits them as `current` if asked to. The records of
 * a change move to the end of the memory (newest); the memory keeps at most `maxRecords`.
 */
export function compare(
	memory: Memory | undefined,
	observed: Observed[],
	options: CompareOptions,
): { changes: Change[]; memory: Memory } {
	const known = new Map((memory?.records ?? []).map((entry) => [entry.id, entry]));
	const seen = new Map<string, JsonObject>();
	const touched = new Map<string, Remembered>();
	const changes: Change[] = [];
	for (const { id, record } of observed) {
		if (seen.has(id)) continue;
		seen.set(id, record);
		const before = known.get(id);
		const entry = remembered(id, record, options.includePrevious);
		if (before?.digest === entry.digest) continue;
		touched.set(id, entry);
		if (!memory) {
			if (options.emitCurrentState) changes.push(change('current', id, record));
		} else if (!before) {
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

function remembered(id: string, record: JsonObject, keepRecord: boolean): Remembered {
	const entry: Remembered = { id, digest: recordDigest(record), fields: fieldDigests(record) };
	if (keepRecord) entry.record = record;
	return entry;
}

/**
 * The memory of a record this poll did not change: its whole record only while Include Previous
 * Record is on (taken from this poll if the option was just turned on).
 */
function withRecord(entry: Remembered, keep: boolean, seenNow?: JsonObject): Remembered {
	const { record, ...rest } = entry;
	const whole = keep ? (record ?? seenNow) : undefined;
	return whole === undefined ? rest : { ...rest, record: whole };
}

function change(
	kind: Change['change'],
	recordId: string,
	record: JsonObject,
	changed: string[] = [],
): Change {
	return { change: kind, recordId, changedFields: changed, record };
}

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** The fields whose digest differs: the record's own fields in order, then the removed ones. */
export function changedFields(
	before: Record<string, string>,
	after: Record<string, string>,
): string[] {
	const removed = Object.keys(before).filter((field) => !has(after, field));
	return [
		...Object.keys(after).filter((field) => !has(before, field) || before[field] !== after[field]),
		...removed,
	];
}
