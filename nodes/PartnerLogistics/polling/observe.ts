import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { pathOf } from '../pipeline/operation';
import { failsEveryRequest, type ApiSession } from '../pipeline/request';
import { readListPage, readRecords } from '../shared/records';
import { eachConcurrently } from '../shared/concurrency';
import { valueAt } from '../shared/valueAt';
import type { Observed } from './changes';
import type { WatchSettings } from './settings';
import type { WatchSpec } from './watches';

/** What one poll saw, and the listed IDs it could not read, with why, in the order they failed. */
export interface Observation {
	observed: Observed[];
	failures: Array<{ id: string; error: Error }>;
}

/** The watch's GETs, through the node's pipeline: a list in one GET, or each listed ID's. */
export async function observe(
	context: IPollFunctions,
	api: ApiSession,
	{ watch, query, idField = '', ids }: WatchSettings,
): Promise<Observation> {
	if (ids) return await readListed(api, watch, ids);
	const request = { method: 'GET' as const, url: watch.operation.path, qs: query, itemIndex: 0 };
	const { body } = await api.read(request, `a JSON list of ${watch.records}`, {
		prefix: `Could not check ${watch.records}:`,
		capability: watch.operation.capability,
	});
	const result = identify(readListPage(body).records, idField);
	if ('observed' in result) return { observed: result.observed, failures: [] };
	const { position, fields } = result.unidentified;
	const shown = fields.slice(0, 20).join(', ') + (fields.length > 20 ? ', …' : '');
	const { displayName } = watch.identity;
	const message = `The ${watch.record} at position ${position} of the API's answer has no usable ID (${displayName})`;
	const description = `Its fields: ${shown || '(none)'}. Changes cannot be told apart: set ${displayName} (now "${idField}") to the field that identifies a ${watch.record}. Nothing was emitted or remembered.`;
	throw new NodeOperationError(context.getNode(), message, { description });
}

/**
 * Each listed ID's GET, Concurrency at a time: a 404 is observed as not found; another failure
 * leaves that ID unread, unless all IDs would fail alike (refused API key, no API): the poll stops.
 */
async function readListed(
	api: ApiSession,
	{ operation, record }: WatchSpec,
	ids: string[],
): Promise<Observation> {
	const observed: Array<Observed | undefined> = [];
	const failures: Observation['failures'] = [];
	let fatal: unknown;
	const readId = async (index: number) => {
		const id = ids[index];
		try {
			const url = pathOf(operation.path, () => id);
			const request = { method: 'GET' as const, url, itemIndex: 0 };
			const { body } = await api.read(request, `a JSON ${record} record`, {
				prefix: `Could not check ${record} ${id}:`,
				capability: operation.capability,
			});
			// A record answer as one record: an object as it is; anything else under `records`.
			const records = readRecords(body);
			observed[index] = { id, record: records.length === 1 ? records[0] : { records } };
		} catch (error) {
			if (error instanceof NodeApiError && error.httpCode === '404') {
				observed[index] = { id, notFound: error.message };
			} else if (failsEveryRequest(error)) {
				fatal ??= error;
			} else {
				failures.push({ id, error: error as Error });
			}
		}
	};
	const stop = () => fatal !== undefined;
	await eachConcurrently(ids.length, api.settings.pacer.concurrency, readId, { stop });
	if (fatal !== undefined) throw fatal;
	return { observed: observed.filter((seen): seen is Observed => seen !== undefined), failures };
}

/**
 * Each record by its identity at `field` (a non-empty string or finite number, as text), the first
 * of those sharing one. One without stops everything: its change could not be told from a new one.
 */
export function identify(
	records: IDataObject[],
	field: string,
): { observed: Observed[] } | { unidentified: { position: number; fields: string[] } } {
	const observed = new Map<string, Observed>();
	for (const [index, record] of records.entries()) {
		const value = valueAt(record, field);
		if (typeof value === 'string' ? value.trim() === '' : !Number.isFinite(value))
			return { unidentified: { position: index + 1, fields: Object.keys(record) } };
		const id = String(value);
		if (!observed.has(id)) observed.set(id, { id, record });
	}
	return { observed: [...observed.values()] };
}
