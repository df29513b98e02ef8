import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { pathOf } from '../pipeline/operation';
import { failsEveryRequest, readListPage, readRecords, type ApiSession } from '../pipeline/request';
import { eachConcurrently } from '../shared/concurrency';
import type { Observed } from './changes';
import { identify } from './identity';
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

/** The list operation's request, e.g. GET /partner-api/support-cases?status=&limit=. */
async function readList(
	context: IPollFunctions,
	api: ApiSession,
	{ watch, query, idField }: WatchSettings,
): Promise<Observation> {
	const request = { method: 'GET' as const, url: watch.operation.path, qs: query };
	const { body } = await api.read({ ...request, itemIndex: 0 }, `a JSON list of ${watch.records}`, {
		prefix: `Could not check ${watch.records}:`,
		capability: watch.operation.capability,
	});
	const { records } = readListPage(body);
	return { observed: identified(context, records, idField!, watch), failures: [] };
}

/**
 * The record operation's request for each listed ID, up to Concurrency at a time, paced as one
 * run. A 404 is observed as not found; any other failure (a hang, an answer too large) leaves that
 * ID unread and the others go on, unless no ID would escape it (a refused key, a missing
 * capability, an API out of reach): that stops the poll.
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

/** The records with their identities, or the poll fails naming the record without one. */
function identified(
	context: IPollFunctions,
	records: IDataObject[],
	field: string,
	watch: WatchSpec,
): Observed[] {
	const result = identify(records, field);
	if ('observed' in result) return result.observed;
	const { position, fields } = result.unidentified;
	const shown = fields.slice(0, 20).join(', ') + (fields.length > 20 ? ', …' : '');
	const label = 'idField' in watch.identity ? watch.identity.idField.displayName : 'the ID field';
	const message = `The ${watch.record} at position ${position} of the API's answer has no usable "${field}", so changes cannot be told apart. Set ${label} to the field that identifies a ${watch.record}.`;
	const description = `Its fields: ${shown || '(none)'}. Nothing was emitted or remembered.`;
	throw new NodeOperationError(context.getNode(), message, { description });
}
