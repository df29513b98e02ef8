import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/** Length of a field's digest: enough to tell one field's values apart, short to store. */
const FIELD_DIGEST_LENGTH = 12;

/** JSON with each object's fields sorted by name, so the API's field order never counts; a list's does. */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(sorted(value)) ?? 'undefined';
}

function sorted(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sorted);
	if (!value || typeof value !== 'object') return value;
	const object = value as IDataObject;
	return Object.fromEntries(
		Object.keys(object)
			.sort()
			.map((name) => [name, sorted(object[name])]),
	);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

export function recordDigest(record: IDataObject): string {
	return sha256(canonicalJson(record));
}

/** A short digest of each top-level field, to tell which fields a change touched. */
export function fieldDigests(record: IDataObject): Record<string, string> {
	const digest = (field: string) =>
		sha256(canonicalJson(record[field])).slice(0, FIELD_DIGEST_LENGTH);
	return Object.fromEntries(Object.keys(record).map((field) => [field, digest(field)]));
}
