import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { compact } from '../pipeline/body';
import { eachConcurrently } from '../pipeline/concurrency';
import { readListPage, readRecords } from '../pipeline/response';
import type { RunSettings } from '../pipeline/runSettings';
import { expectJson, sending, sendRequest, type Sending } from '../pipeline/send';
import { authenticatedSender } from '../pipeline/transport';
import { paymentGet } from '../resources/payment/get';
import { supportCaseGetMany } from '../resources/supportCase/getAll';
import { trackingGetTrucks } from '../resources/tracking/getTrucks';
import type { Observed } from './changes';
import type { WatchValue } from './description';
import type { JsonObject } from './digest';
import { identify, listedReferences } from './identity';

/** What one poll saw: the records with their identities, and what they belong to (see Memory). */
export interface Observation {
	watching: string;
	/** What the records are, for messages: "support cases". */
	what: string;
	observed: Observed[];
}

/**
 * Reads what the trigger watches from the API, through the action node's pipeline (pacing,
 * retries, transport rules, redaction). Any failure throws before anything is remembered.
 */
export async function observe(
	context: IPollFunctions,
	settings: RunSettings,
): Promise<Observation> {
	const watch = context.getNodeParameter('watch') as WatchValue;
	if (watch === 'payment') return await payments(context, settings);
	if (watch === 'truck') return await trucks(context, settings);
	return await supportCases(context, settings);
}

/** Support Case › Get Many's request: GET /partner-api/support-cases?status=&limit=. */
async function supportCases(context: IPollFunctions, settings: RunSettings): Promise<Observation> {
	const status = String(context.getNodeParameter('status', '') ?? '').trim();
	const limit = context.getNodeParameter('limit', 50) as number;
	const field = idField(context, 'caseIdField', 'Case ID Field');
	const run = runOf(context, settings, 'Could not check support cases:', supportCaseGetMany);
	const response = await sendRequest(run, {
		method: 'GET',
		url: supportCaseGetMany.path,
		qs: compact({ status, limit }),
		itemIndex: 0,
	});
	const { records } = readListPage(expectJson(run, response, 'a JSON list of support cases'));
	return {
		watching: `supportCase status=${status} id=${field}`,
		what: 'support cases',
		observed: identified(context, records, field, 'support case', 'Case ID Field'),
	};
}

/** Tracking › Get Trucks' request: GET /partner-api/haulage/tracking/trucks. */
async function trucks(context: IPollFunctions, settings: RunSettings): Promise<Observation> {
	const field = idField(context, 'assignmentIdField', 'Assignment ID Field');
	const run = runOf(context, settings, 'Could not check the assigned trucks:');
	const response = await sendRequest(run, {
		method: 'GET',
		url: trackingGetTrucks.path,
		itemIndex: 0,
	});
	const { records } = readListPage(expectJson(run, response, 'a JSON list of trucks'));
	return {
		watching: `truck id=${field}`,
		what: 'assigned trucks',
		observed: identified(context, records, field, 'truck', 'Assignment ID Field'),
	};
}

/**
 * Payment › Get's request for each listed reference, up to Concurrency at a time; the first
 * failure stops the rest and fails the poll. A payment is identified by its reference.
 */
async function payments(context: IPollFunctions, settings: RunSettings): Promise<Observation> {
	const references = listedReferences(context.getNodeParameter('references', ''));
	const shared = runOf(context, settings, '');
	const records: JsonObject[] = [];
	let failure: unknown;
	await eachConcurrently(
		references.length,
		settings.pacer.concurrency,
		async (index) => {
			const reference = references[index];
			// One pacer for every reference; each error names its reference.
			const run: Sending = { ...shared, prefix: `Could not check payment ${reference}:` };
			try {
				const response = await sendRequest(run, {
					method: 'GET',
					url: paymentGet.path.replace('{reference}', encodeURIComponent(reference)),
					itemIndex: 0,
				});
				records[index] = oneRecord(expectJson(run, response, 'a JSON payment record'));
			} catch (error) {
				failure ??= error;
			}
		},
		{ stop: () => failure !== undefined },
	);
	if (failure !== undefined) throw failure;
	return {
		watching: 'payment',
		what: 'payment references',
		observed: references.map((id, index) => ({ id, record: records[index] })),
	};
}

/**
 * The sending of one poll's requests: GETs only (no Idempotency-Key), paced and retried like the
 * action node's, a 403 read with the operation's capability.
 */
function runOf(
	context: IPollFunctions,
	settings: RunSettings,
	prefix: string,
	operation: { capability?: string } = {},
): Sending {
	return sending(
		context.getNode(),
		settings,
		authenticatedSender(context, settings.transport),
		undefined,
		{ mutating: false, prefix, capability: operation.capability },
	);
}

/** A record answer as one record: an object as it is; anything else under `records`. */
function oneRecord(body: unknown): JsonObject {
	const records = readRecords(body);
	return records.length === 1 ? records[0] : { records };
}

function idField(context: IPollFunctions, name: string, label: string): string {
	const field = String(context.getNodeParameter(name, '') ?? '').trim();
	if (field === '') {
		throw new NodeOperationError(context.getNode(), `${label} (${name}) is empty`, {
			description: 'Name the field of a record that identifies it.',
		});
	}
	return field;
}

/** The records with their identities, or the poll fails naming the record without one. */
function identified(
	context: IPollFunctions,
	records: JsonObject[],
	field: string,
	what: string,
	label: string,
): Observed[] {
	const result = identify(records, field);
	if ('observed' in result) return result.observed;
	const { position, fields } = result.unidentified;
	const shown = fields.slice(0, 20).join(', ') + (fields.length > 20 ? ', …' : '');
	throw new NodeOperationError(
		context.getNode(),
		`The ${what} at position ${position} of the API's answer has no usable "${field}", so changes cannot be told apart. Set ${label} to the field that identifies a ${what}.`,
		{ description: `Its fields: ${shown || '(none)'}. Nothing was emitted or remembered.` },
	);
}
