import type { IDataObject } from 'n8n-workflow';

/**
 * Records from a record operation's answer, passing unknown shapes through untouched: an array
 * gives one record per element, an object one record. Values that are not objects are wrapped,
 * since an n8n item's `json` must be an object.
 */
export function readRecords(body: unknown): IDataObject[] {
	return (Array.isArray(body) ? body : [body]).map(asObject);
}

function asObject(value: unknown): IDataObject {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	if (value === undefined || value === null || value === '') return {};
	return { value } as IDataObject;
}

const LIST_KEYS = ['items', 'data', 'results', 'cases', 'supportCases', 'trucks'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor', 'nextPageToken'];

/**
 * One page of a list answer. The spec does not show the list shape: a bare array is a whole
 * answer; an object holding the list under a usual key may reveal a cursor to the next page;
 * any other object is one record.
 */
export function readListPage(body: unknown): { records: IDataObject[]; cursor?: string } {
	if (Array.isArray(body)) return { records: body.map(asObject) };
	if (!body || typeof body !== 'object')
		return { records: body === undefined ? [] : [asObject(body)] };
	const record = body as IDataObject;
	const listKey = LIST_KEYS.find((key) => Array.isArray(record[key]));
	if (!listKey) return { records: [record] };
	const cursorKey = CURSOR_KEYS.find(
		(key) => typeof record[key] === 'string' && (record[key] as string) !== '',
	);
	return {
		records: (record[listKey] as unknown[]).map(asObject),
		cursor: cursorKey ? (record[cursorKey] as string) : undefined,
	};
}
