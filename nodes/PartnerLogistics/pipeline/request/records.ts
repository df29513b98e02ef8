import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/valueAt';

/** A record answer's records, as n8n items' json: a value that is not an object is wrapped. */
export function readRecords(body: unknown): IDataObject[] {
	return (Array.isArray(body) ? body : [body]).map(asObject);
}

function asObject(value: unknown): IDataObject {
	if (isObject(value)) return value as IDataObject;
	if (value === undefined || value === null || value === '') return {};
	return { value } as IDataObject;
}

const LIST_KEYS = ['items', 'data', 'results', 'cases', 'supportCases', 'trucks'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor', 'nextPageToken'];

/**
 * One page of a list answer. The spec shows no list shape: a bare array is the whole answer; an
 * object with the list under a usual key may reveal a next-page cursor; any other is one record.
 */
export function readListPage(body: unknown): { records: IDataObject[]; cursor?: string } {
	if (Array.isArray(body)) return { records: body.map(asObject) };
	if (!isObject(body)) return { records: body === undefined ? [] : [asObject(body)] };
	const listKey = LIST_KEYS.find((key) => Array.isArray(body[key]));
	if (!listKey) return { records: [body as IDataObject] };
	const cursorKey = CURSOR_KEYS.find((key) => typeof body[key] === 'string' && body[key] !== '');
	return {
		records: (body[listKey] as unknown[]).map(asObject),
		cursor: cursorKey ? (body[cursorKey] as string) : undefined,
	};
}
