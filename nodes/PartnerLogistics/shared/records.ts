import type { IDataObject } from 'n8n-workflow';

import { isObject } from './valueAt';

/** A record answer's records, as n8n items' json: a value that is not an object is wrapped. */
export function readRecords(body: unknown): IDataObject[] {
	return (Array.isArray(body) ? body : [body]).map(asObject);
}

function asObject(value: unknown): IDataObject {
	if (isObject(value)) return value as IDataObject;
	if (value === undefined || value === null || value === '') return {};
	return { value } as IDataObject;
}

const LIST_FIELDS = ['items', 'data', 'results', 'cases', 'supportCases', 'trucks'];
const CURSOR_FIELDS = ['nextCursor', 'next_cursor', 'cursor', 'nextPageToken'];

/** One page of a list answer; the spec shows no list shape, so any of the usual ones is read. */
export function readListPage(body: unknown): { records: IDataObject[]; cursor?: string } {
	if (Array.isArray(body)) return { records: body.map(asObject) };
	if (!isObject(body)) return { records: body === undefined ? [] : [asObject(body)] };
	const listField = LIST_FIELDS.find((field) => Array.isArray(body[field]));
	if (!listField) return { records: [body as IDataObject] };
	const cursorField = CURSOR_FIELDS.find(
		(field) => typeof body[field] === 'string' && body[field] !== '',
	);
	return {
		records: (body[listField] as unknown[]).map(asObject),
		cursor: cursorField ? (body[cursorField] as string) : undefined,
	};
}
