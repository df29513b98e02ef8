import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/**
 * Items from a response, passing unknown shapes through untouched: an array gives one item per
 * element, an object one item. Values that are not objects are wrapped, since an n8n item's
 * `json` must be an object.
 */
export function toItems(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.flatMap((item) => {
		const body: unknown = item.json;
		const values = Array.isArray(body) ? body : [body];
		return values.map((value) => ({ ...item, json: asObject(value) }));
	});
}

function asObject(value: unknown): IDataObject {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	if (value === undefined || value === null || value === '') return {};
	return { value } as IDataObject;
}

const LIST_KEYS = ['items', 'data', 'results', 'cases', 'supportCases'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor', 'nextPageToken'];

/**
 * One page of a list response. The spec does not show the list shape: a bare array is a whole
 * answer; an object holding the list under a usual key may reveal a cursor to the next page.
 */
export function readListPage(body: unknown): { items: IDataObject[]; cursor?: string } {
	if (Array.isArray(body)) return { items: body.map(asObject) };
	if (!body || typeof body !== 'object')
		return { items: body === undefined ? [] : [asObject(body)] };
	const record = body as IDataObject;
	const listKey = LIST_KEYS.find((key) => Array.isArray(record[key]));
	if (!listKey) return { items: [record] };
	const cursorKey = CURSOR_KEYS.find(
		(key) => typeof record[key] === 'string' && (record[key] as string) !== '',
	);
	return {
		items: (record[listKey] as unknown[]).map(asObject),
		cursor: cursorKey ? (record[cursorKey] as string) : undefined,
	};
}
