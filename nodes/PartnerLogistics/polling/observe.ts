import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { pathOf } from '../pipeline/operation';
import { failsEveryRequest, type ApiSession } from '../pipeline/request';
import { readListPage, readRecords } from '../shared/records';
import { eachConcurrently } from '../shared/concurrency';
import { valueAt } from '../shared/valueAt';
import type { Observed } from './changes';
import type { WatchSettings } from './settings';
import type { WatchSpec } from './watch';

/** What one poll saw, and what it could not read. */
export interface Observation {
	observed: Observed[];
	/** Listed IDs that could not be read, and why, in the order they failed. */
	failures: Array<{ id: string; error: Error }>;
}

/** What the watch watches, through the node's pipeline: a list in one GET, or each listed ID's. */
export async function observe(
	context: IPollFunctions,
	session: ApiSession,
	watched: WatchSettings,
): Promise<Observation> {
	return watched.ids === undefined
		? await readList(context, session, watched)
		: await readListed(session, watched.watch, watched.ids);
}

/** The list operation's GET, e.g. /partner-api/support-cases?status=&limit=; records identified. */
async function readList(
	context: IPollFunctions,
	api: ApiSession,
	{ watch, query, idField = '' }: WatchSettings,
): Promise<Observation> {
	const request = { method: 'GET' as const, url: watch.operation.path, qs: query, itemIndex: 0 };
	const { body } = await api.read(request, `a JSON list of ${watch.records}`, {
		prefix: `Could not check ${watch.records}:`,
		capability: watch.operation.capability,
	});
	const result = identify(readListPage(body).records, idField);
	if ('observed' in result) return { observed: result.observed, failures: [] };
	const { position, fields } = result.unidentified;
	const shown = fields.slice(0, 20).join(', ') + (fields.length > 20 ? ', …' : '');
	const { displayName } = (watch.identity as { idField: INodeProperties }).idField;
	const message = `The ${watch.record} at position ${position} of the API's answer has no usable ID (${displayName})`;
	const description = `Its fields: ${shown || '(none)'}. Changes cannot be told apart: set ${displayName} (now "${idField}") to the field that identifies a ${watch.record}. Nothing was emitted or remembered.`;
	throw new NodeOperationError(context.getNode(), message, { description });
}

/**
 * The record operation's GET for each listed ID, up to Concurrency at a time. A 404 is observed as
 * not found; another failure leaves that ID unread and the others go on, unless no ID would escape
 * it (a refused API key, a missing capability, an API out of reach): that stops the poll.
 */
async function readListed(api: ApiSession, watch: WatchSpec, ids: string[]): Promise<Observation> {
	const observed: Array<Observed | undefined> = [];
	const failures: Observation['failures'] = [];
	let fatal: unknown;
	await eachConcurrently(
		ids.length,
		api.settings.pacer.concurrency,
		async (index) => {
			const id = ids[index];
			// One pacer for every ID; each error names its ID.
			const prefix = `Could not check ${watch.record} ${id}:`;
			try {
				const url = pathOf(watch.operation.path, () => id);
				const request = { method: 'GET' as const, url, itemIndex: 0 };
				const { body } = await api.read(request, `a JSON ${watch.record} record`, {
					prefix,
					capability: watch.operation.capability,
				});
				observed[index] = { id, record: oneRecord(body) };
			} catch (error) {
				if (error instanceof NodeApiError && error.httpCode === '404') {
					observed[index] = { id, notFound: error.message };
				} else if (failsEveryRequest(error)) {
					fatal ??= error;
				} else {
					failures.push({ id, error: error as Error });
				}
			}
		},
		{ stop: () => fatal !== undefined },
	);
	if (fatal !== undefined) throw fatal;
	return { observed: observed.filter((seen): seen is Observed => seen !== undefined), failures };
}

/** A record answer as one record: an object as it is; anything else under `records`. */
function oneRecord(body: unknown): IDataObject {
	const records = readRecords(body);
	return records.length === 1 ? records[0] : { records };
}

/** An identity as text: a non-empty string or a finite number; anything else is none. */
function identityOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/**
 * Each record with its identity, read from `field`; of records sharing one, the first. A record
 * without one stops everything (its change could not be told from a new record): its position
 * (from 1) and field names are returned.
 */
export function identify(
	records: IDataObject[],
	field: string,
): { observed: Observed[] } | { unidentified: { position: number; fields: string[] } } {
	const observed: Observed[] = [];
	const ids = new Set<string>();
	for (const [index, record] of records.entries()) {
		const id = identityOf(valueAt(record, field));
		if (id === undefined) {
			return { unidentified: { position: index + 1, fields: Object.keys(record) } };
		}
		if (ids.has(id)) continue;
		ids.add(id);
		observed.push({ id, record });
	}
	return { observed };
}
