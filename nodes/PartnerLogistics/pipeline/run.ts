import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { eachConcurrently } from '../shared/concurrency';
import { runKeys, type RunKeys } from './idempotency';
import {
	isReadOnly,
	itemError,
	referentOf,
	requestOf,
	type BodyInput,
	type OperationSpec,
} from './operation';
import { isGiven } from './problem';
import { parameterReaders, type ParameterReaders } from './parameters';
import {
	readListPage,
	readRecords,
	runSession,
	type ApiResponse,
	type ApiSession,
	type ItemRequest,
} from './request';

/** A safety stop for Return All, should an API keep handing out cursors. */
const MAX_PAGES = 1000;
/**
 * The longest stretch of item preparation (parameters, expressions, bodies) before the pipeline
 * gives n8n's event loop a turn, so the editor, webhooks and health checks stay served during a
 * long batch. Answers arriving together would otherwise each prepare their next item back to back.
 */
const TURN_MS = 10;

/** Why an item stopped: NodeOperationError (nothing sent) or NodeApiError (the API's answer). */
type ItemError = NodeOperationError | NodeApiError;

/** What every item of one run shares. */
interface Run {
	context: IExecuteFunctions;
	spec: OperationSpec;
	api: ApiSession;
	keys: RunKeys | undefined;
	readers: ParameterReaders;
	/** Options › Dry Run: each item's request is output instead of sent. */
	dryRun: boolean;
}

/**
 * Runs one operation on every input item, up to Concurrency at a time: parameters -> body ->
 * Idempotency-Key -> paced send with retries -> error mapping -> items paired with their input.
 * A cancelled execution, or a failed item without Continue On Fail, starts no more items.
 */
export async function runOperation(
	context: IExecuteFunctions,
	resource: string,
	spec: OperationSpec,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const mutating = !isReadOnly(spec);
	const api = await runSession(context, { capability: spec.capability, mutating });
	const dryRun = context.getNodeParameter('options.dryRun', 0, false) === true;
	const action = `${resource}.${spec.value}`;
	const { baseUrl } = api.settings.transport;
	const keys = mutating ? runKeys(context, action, baseUrl) : undefined;
	const run: Run = { context, spec, api, keys, readers: parameterReaders(context), dryRun };
	const signal = context.getExecutionCancelSignal();
	const continueOnFail = context.continueOnFail();
	const results: INodeExecutionData[][] = [];
	let firstError: ItemError | undefined;
	await eachConcurrently(
		items.length,
		api.settings.pacer.concurrency,
		async (itemIndex) => {
			const pairedItem = { item: itemIndex };
			try {
				const records = await runItem(run, itemIndex, items[itemIndex].json);
				results[itemIndex] = records.map((json) => ({ json, pairedItem }));
			} catch (error) {
				const failed = asItemError(context, error, itemIndex);
				if (!continueOnFail) {
					firstError ??= failed;
					return;
				}
				results[itemIndex] = [{ json: { error: failed.message }, error: failed, pairedItem }];
			}
		},
		{ beforeEach: turnTaker(), stop: () => !!firstError || !!signal?.aborted },
	);
	if (firstError) throw firstError;
	// Every item is done: a later run of the same input is a new one.
	if (!signal?.aborted) keys?.finished();
	return [results.flat()];
}

/** One item: its request(s), and the records its answer(s) hold. */
async function runItem(run: Run, itemIndex: number, item: IDataObject): Promise<IDataObject[]> {
	const input: BodyInput = { read: run.readers(itemIndex), item };
	const request = prepare(run, input, itemIndex);
	// The one place a dry run parts from a real one: everything above wrote nothing.
	if (run.dryRun) return [await preview(run, request, input)];
	if (run.spec.list) return await listRecords(run, request, input);
	const read = async () => await run.api.read(request, 'a JSON record');
	const { keys } = run;
	const key = request.idempotencyKey;
	if (!keys || key === undefined) return recordsOf(run, request, await read());
	request.keyHeldForOtherBody = keys.sending(key, request.body);
	return recordsOf(run, request, await keys.send(key, read));
}

/** The item's request (`requestOf`) and its Idempotency-Key. */
function prepare(run: Run, input: BodyInput, itemIndex: number): ItemRequest {
	const { spec, keys, context } = run;
	try {
		const request: ItemRequest = { ...requestOf(spec, input), itemIndex };
		if (!keys) return request;
		const referent = referentOf(spec, input, request.body);
		request.idempotencyKey = givenKey(input) || keys.keyOf(itemIndex, referent?.values);
		if (referent && keys.isReferentKey(request.idempotencyKey)) request.referent = referent.label;
		return request;
	} catch (error) {
		throw itemError(spec, input, itemIndex, context.getNode(), error);
	}
}

/** Options › Idempotency Key (e.g. from an order ID), or '' for the derived default. */
function givenKey(input: BodyInput): string {
	const given = input.read('options.idempotencyKey');
	return typeof given === 'string' || typeof given === 'number' ? String(given).trim() : '';
}

/**
 * A dry run's item: the request it would send (a list's first page) and what its key is made of:
 * the key a real run sends, whether it acts on something that exists or creates.
 */
async function preview(run: Run, request: ItemRequest, input: BodyInput): Promise<IDataObject> {
	const { idempotencyKey, referent } = request;
	const sent = { dryRun: true, ...(await run.api.preview(request)) } as IDataObject;
	if (idempotencyKey === undefined) return sent;
	const madeOf =
		referent !== undefined
			? `the API, this action and ${referent || 'what it acts on'}: the same in every execution`
			: givenKey(input)
				? 'Options › Idempotency Key'
				: `these input items and item ${request.itemIndex + 1}: a real run sends this key, and so does its Retry`;
	return { ...sent, idempotencyKey, idempotencyKeyMadeOf: madeOf };
}

/** The records of a record operation's 2xx answer, shaped by the operation. */
function recordsOf(
	run: Run,
	request: ItemRequest,
	{ response, body }: { response: ApiResponse; body: unknown },
): IDataObject[] {
	const { spec } = run;
	const records = readRecords(body);
	if (spec.requires && !records.every((record) => isGiven(record[spec.requires!]))) {
		throw run.api.unusable(
			response,
			`The API answered ${response.status} without a ${spec.requires}. Check that the credential's Base URL points at the Partner Logistics API.`,
			'This is not a usable answer, so nothing is output for this item.',
		);
	}
	return spec.output ? records.map((record) => spec.output!(record, request.body ?? {})) : records;
}

/** A list operation: one page, or every page while the API reveals a cursor (Return All). */
async function listRecords(
	run: Run,
	request: ItemRequest,
	input: BodyInput,
): Promise<IDataObject[]> {
	const returnAll = input.read('returnAll') === true;
	const limit = Number(input.read('limit'));
	const all: IDataObject[] = [];
	const seen = new Set<string>();
	let qs = request.qs;
	for (let page = 0; page < MAX_PAGES; page++) {
		const { body } = await run.api.read({ ...request, qs }, 'a JSON list');
		const { records, cursor } = readListPage(body);
		all.push(...records);
		if (!returnAll || cursor === undefined || seen.has(cursor)) break;
		seen.add(cursor);
		qs = { ...(qs ?? {}), cursor };
	}
	return !returnAll && Number.isInteger(limit) && limit > 0 ? all.slice(0, limit) : all;
}

function asItemError(context: IExecuteFunctions, error: unknown, itemIndex: number): ItemError {
	const failed =
		error instanceof NodeOperationError || error instanceof NodeApiError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	failed.context.itemIndex = itemIndex;
	return failed;
}

/** Resolves at once, or after a turn of the event loop once this one has run TURN_MS. */
function turnTaker(): () => Promise<void> {
	let turnStartedAt = Date.now();
	return async () => {
		if (Date.now() - turnStartedAt < TURN_MS) return;
		await sleep(0);
		turnStartedAt = Date.now();
	};
}
