import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { eachConcurrently } from './concurrency';
import { buildBody, type BodyInput, type ParameterReader } from './body';
import { evidence } from './errors';
import type { RunKeys } from './keys';
import { runKeys } from './keyMemory';
import { isReadOnly, pathIds, type OperationSpec } from './operation';
import { parameterReaders, type ParameterReaders } from './parameters';
import { pathOf } from './path';
import { describeProblem, labelsOf, ProblemError, type Labels } from './problem';
import { readListPage, readRecords } from './response';
import { readRunSettings } from './runSettings';
import { apiError, expectJson, sending, sendRequest, type ItemRequest, type Sending } from './send';
import { authenticatedSender, type ApiResponse } from './transport';

/** A safety stop for Return All, should an API keep handing out cursors. */
const MAX_PAGES = 1000;
/**
 * The longest stretch of item preparation (parameters, expressions, bodies) before the pipeline
 * gives n8n's event loop a turn, so the editor, webhooks and health checks stay served during a
 * long batch. Answers arriving together would otherwise each prepare their next item back to back.
 */
const TURN_MS = 10;

/** Why an item stopped: a NodeOperationError (nothing sent) or a NodeApiError (the API's answer). */
type ItemError = NodeOperationError | NodeApiError;

/**
 * Runs one operation on every input item: parameters -> body -> Idempotency-Key -> paced send
 * with retries -> error mapping -> items paired with their input. Up to `concurrency` items are
 * in flight; a cancelled execution starts nothing more. Without Continue On Fail the first
 * failing item stops the run (items already in flight finish; no new one starts).
 */
export async function runOperation(
	context: IExecuteFunctions,
	resource: string,
	spec: OperationSpec,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const settings = await readRunSettings(context);
	const keys = isReadOnly(spec)
		? undefined
		: runKeys(context, `${resource}.${spec.value}`, settings.transport.baseUrl);
	const run: Run = {
		...sending(
			context.getNode(),
			settings,
			authenticatedSender(context, settings.transport),
			context.getExecutionCancelSignal(),
			{ capability: spec.capability, mutating: !isReadOnly(spec), keys },
		),
		spec,
		readers: parameterReaders(context),
		labels: labelsOf(spec.fields ?? []),
	};
	const continueOnFail = context.continueOnFail();
	const results: INodeExecutionData[][] = [];
	let firstError: ItemError | undefined;
	await eachConcurrently(
		items.length,
		settings.pacer.concurrency,
		async (itemIndex) => {
			const pairedItem = { item: itemIndex };
			try {
				const records = await runItem(run, itemIndex, items[itemIndex].json);
				results[itemIndex] = records.map((json) => ({ json, pairedItem }));
			} catch (error) {
				const itemError = asItemError(context, error, itemIndex);
				if (!continueOnFail) {
					firstError ??= itemError;
					return;
				}
				results[itemIndex] = [{ json: { error: itemError.message }, error: itemError, pairedItem }];
			}
		},
		{ beforeEach: turnTaker(), stop: () => !!firstError || !!run.signal?.aborted },
	);
	if (firstError) throw firstError;
	return [results.flat()];
}

interface Run extends Sending {
	spec: OperationSpec;
	readers: ParameterReaders;
	/** How the operation's form labels its fields, for messages. */
	labels: Labels;
}

/** One item: its request(s), and the records its answer(s) hold. */
async function runItem(run: Run, itemIndex: number, item: IDataObject): Promise<IDataObject[]> {
	const input: BodyInput = { read: run.readers(itemIndex), item };
	const request = prepare(run, input, itemIndex);
	if (run.spec.list) return await listRecords(run, request, input.read);
	const { keys } = run;
	const key = request.idempotencyKey;
	const response =
		keys && key !== undefined
			? await keys.inTurn(key, async () => await sendRequest(run, request))
			: await sendRequest(run, request);
	return recordsOf(run, request, response);
}

/**
 * The item's request: path, body, query and Idempotency-Key, the key's use remembered for a
 * retry of the execution. A problem with the item stops it here, before anything is sent, with a
 * message naming the field as the editor shows it.
 */
function prepare(run: Run, input: BodyInput, itemIndex: number): ItemRequest {
	const { spec, keys } = run;
	try {
		const request: ItemRequest = {
			method: spec.method,
			url: pathOf(spec.path, input.read),
			itemIndex,
		};
		if (spec.body) request.body = buildBody(input, spec.body, spec.check);
		if (spec.query) request.qs = spec.query(input.read);
		if (keys) {
			const referent = referentOf(spec, input.read, request.body);
			request.idempotencyKey = idempotencyKey(keys, input.read, itemIndex, referent?.values);
			request.keyHeldForOtherBody = keys.sending(request.idempotencyKey, request.body);
			if (referent && keys.isReferentKey(request.idempotencyKey)) {
				request.referent = referent.label(run.labels);
			}
		}
		return request;
	} catch (error) {
		if (!(error instanceof ProblemError)) {
			throw new NodeOperationError(run.node, error as Error, { itemIndex });
		}
		const reference = spec.reference?.(input);
		throw new NodeOperationError(
			run.node,
			describeProblem(error.problem, run.labels, itemIndex, reference),
			{
				itemIndex,
				description: 'Nothing was sent to the API for this item. Correct the value and run again.',
			},
		);
	}
}

/** Options › Idempotency Key when given (e.g. from an order ID), else the derived default. */
function idempotencyKey(
	keys: RunKeys,
	read: ParameterReader,
	itemIndex: number,
	referent: string[] | undefined,
): string {
	const given = read('options.idempotencyKey');
	const text = typeof given === 'string' || typeof given === 'number' ? String(given).trim() : '';
	return text || keys.keyOf(itemIndex, referent);
}

/**
 * What the item's action acts on (OperationSpec.referent), as sent: a path id as read, a body
 * field as the body carries it (after Extra Body Fields), so the key names what the API is asked.
 */
function referentOf(spec: OperationSpec, read: ParameterReader, body: IDataObject | undefined) {
	if (!spec.referent) return undefined;
	const inPath = pathIds(spec.path);
	const named = spec.referent.map((name) => {
		const value = inPath.includes(name) ? read(name) : body?.[name];
		return { name, value: value === undefined || value === null ? '' : String(value).trim() };
	});
	return {
		values: named.map(({ value }) => value),
		/** "Quote ID qt_7", for a message about what the key stands for. */
		label: (labels: Labels) =>
			named
				.filter(({ value }) => value !== '')
				.map(({ name, value }) => `${labels.get(name) ?? name} ${value}`)
				.join(', '),
	};
}

/** The records of a record operation's 2xx answer, shaped by the operation. */
function recordsOf(run: Run, request: ItemRequest, response: ApiResponse): IDataObject[] {
	const { spec } = run;
	const records = readRecords(expectJson(run, response, 'a JSON record'));
	if (spec.requires && !records.every((record) => present(record[spec.requires!]))) {
		throw apiError(run, response, {
			message: `The API answered ${response.status} without a ${spec.requires}, so this is not a usable answer. Nothing is output for this item; check the credential's Base URL points at the Partner Logistics API.`,
			description: `The API answered ${response.status} with: ${evidence(response.body, run.settings.secrets)}`,
		});
	}
	return spec.output ? records.map((record) => spec.output!(record, request.body ?? {})) : records;
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A list operation: one page, or every page while the API reveals a cursor (Return All). */
async function listRecords(
	run: Run,
	request: ItemRequest,
	read: ParameterReader,
): Promise<IDataObject[]> {
	const returnAll = read('returnAll') === true;
	const limit = Number(read('limit'));
	const all: IDataObject[] = [];
	const seen = new Set<string>();
	let qs = request.qs;
	for (let page = 0; page < MAX_PAGES; page++) {
		const response = await sendRequest(run, { ...request, qs });
		const { records, cursor } = readListPage(expectJson(run, response, 'a JSON list'));
		all.push(...records);
		if (!returnAll || cursor === undefined || seen.has(cursor)) break;
		seen.add(cursor);
		qs = { ...(qs ?? {}), cursor };
	}
	return !returnAll && Number.isInteger(limit) && limit > 0 ? all.slice(0, limit) : all;
}

function asItemError(context: IExecuteFunctions, error: unknown, itemIndex: number): ItemError {
	const itemError =
		error instanceof NodeOperationError || error instanceof NodeApiError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	itemError.context.itemIndex = itemIndex;
	return itemError;
}

/** Resolves at once, unless this turn of the event loop has already run TURN_MS: then after a turn. */
function turnTaker(): () => Promise<void> {
	let turnStartedAt = Date.now();
	return async () => {
		if (Date.now() - turnStartedAt < TURN_MS) return;
		await sleep(0);
		turnStartedAt = Date.now();
	};
}
