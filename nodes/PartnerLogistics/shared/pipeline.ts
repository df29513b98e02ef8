import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { buildBody } from './body';
import {
	describeFailedAnswer,
	describeFault,
	describeKeyHeldForOtherBody,
	describeLongRetryAfter,
	describeUnexpectedBody,
	evidence,
	readBody,
	redact,
	type ApiErrorText,
} from './errors';
import { refusesForGood, runKeys, type RunKeys } from './idempotency';
import { isReadOnly, pathIds, type OperationSpec } from './operation';
import { Pacer, type Clock } from './pacer';
import { parameterReaders, type ParameterReaders } from './parameters';
import { readListPage, readRecords } from './response';
import { decideRetry, MAX_RETRY_DELAY_MS, type Attempt, type RetryState } from './retry';
import type { ParameterReader } from './routeBody';
import { readRunSettings, type RunSettings } from './settings';
import {
	authenticatedSender,
	sendApiRequest,
	type ApiRequest,
	type ApiResponse,
	type Sender,
} from './transport';
import { describeProblem, fail, ProblemError, required } from './validate';

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
	const signal = context.getExecutionCancelSignal();
	const wait = sleeper(signal);
	const clock: Clock = { now: () => Date.now(), wait };
	const run: Run = {
		context,
		spec,
		settings,
		signal,
		wait,
		pacer: new Pacer(settings.pacer, clock),
		readers: parameterReaders(context),
		send: authenticatedSender(context, settings.transport),
		keys: isReadOnly(spec) ? undefined : runKeys(context, `${resource}.${spec.value}`),
	};
	const continueOnFail = context.continueOnFail();
	const results: INodeExecutionData[][] = [];
	let firstError: ItemError | undefined;
	let next = 0;
	const yieldTurn = turnTaker();

	const worker = async () => {
		for (;;) {
			await yieldTurn();
			if (next >= items.length || firstError || signal?.aborted) return;
			const itemIndex = next++;
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
		}
	};
	const workers = Math.min(settings.pacer.concurrency, items.length);
	await Promise.all(Array.from({ length: workers }, worker));
	if (firstError) throw firstError;
	return [results.flat()];
}

interface Run {
	context: IExecuteFunctions;
	spec: OperationSpec;
	settings: RunSettings;
	signal: AbortSignal | undefined;
	/** Sleeps, waking early when the execution is cancelled. */
	wait: (ms: number) => Promise<void>;
	pacer: Pacer;
	readers: ParameterReaders;
	send: Sender;
	/** The run's Idempotency-Keys; none for operations that only read. */
	keys: RunKeys | undefined;
}

/** An item's request, and whether its key was already used for another body (see RunKeys). */
interface ItemRequest extends ApiRequest {
	itemIndex: number;
	keyHeldForOtherBody?: boolean;
}

/** One item: its request(s), and the records its answer(s) hold. */
async function runItem(run: Run, itemIndex: number, item: IDataObject): Promise<IDataObject[]> {
	const read = run.readers(itemIndex);
	const request = prepare(run, read, itemIndex, item);
	return run.spec.list
		? await listRecords(run, request, read)
		: recordsOf(run, request, await send(run, request));
}

/**
 * The item's request: path, body, query and Idempotency-Key, the key's use remembered for a
 * retry of the execution. A problem with the item stops it here, before anything is sent, with a
 * message naming the field as the editor shows it.
 */
function prepare(
	run: Run,
	read: ParameterReader,
	itemIndex: number,
	item: IDataObject,
): ItemRequest {
	const { spec } = run;
	try {
		const request: ItemRequest = { method: spec.method, url: urlOf(spec.path, read), itemIndex };
		if (spec.body) request.body = buildBody({ read, item }, spec.body, spec.check);
		if (spec.query) request.qs = spec.query(read);
		if (run.keys) {
			request.idempotencyKey = idempotencyKey(run.keys, read, itemIndex);
			request.keyHeldForOtherBody = run.keys.sending(request.idempotencyKey, request.body);
		}
		return request;
	} catch (error) {
		if (!(error instanceof ProblemError)) {
			throw new NodeOperationError(run.context.getNode(), error as Error, { itemIndex });
		}
		const typed = read('additionalFields') as IDataObject | undefined;
		const reference = item.externalReference ?? typed?.externalReference;
		throw new NodeOperationError(
			run.context.getNode(),
			describeProblem(error.problem, itemIndex, reference),
			{
				itemIndex,
				description: 'Nothing was sent to the API for this item. Correct the value and run again.',
			},
		);
	}
}

/** `/cases/{caseId}/close` with each id read, trimmed, required and URL-encoded. */
function urlOf(path: string, read: ParameterReader): string {
	let url = path;
	for (const id of pathIds(path)) {
		const value = read(id);
		const text = value === undefined || value === null ? '' : String(value).trim();
		if (text === '') fail(required(id, value));
		url = url.replace(`{${id}}`, encodeURIComponent(text));
	}
	return url;
}

/** Options › Idempotency Key when given (e.g. from an order ID), else the derived default. */
function idempotencyKey(keys: RunKeys, read: ParameterReader, itemIndex: number): string {
	const given = read('options.idempotencyKey');
	const text = typeof given === 'string' || typeof given === 'number' ? String(given).trim() : '';
	return text || keys.keyOf(itemIndex);
}

/** The records of a record operation's 2xx answer, shaped by the operation. */
function recordsOf(run: Run, request: ApiRequest, response: ApiResponse): IDataObject[] {
	const { spec } = run;
	const body = expectJson(run, response, 'a JSON record');
	const records = readRecords(body);
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
		const response = await send(run, { ...request, qs });
		const { records, cursor } = readListPage(expectJson(run, response, 'a JSON list'));
		all.push(...records);
		if (!returnAll || cursor === undefined || seen.has(cursor)) break;
		seen.add(cursor);
		qs = { ...(qs ?? {}), cursor };
	}
	return !returnAll && Number.isInteger(limit) && limit > 0 ? all.slice(0, limit) : all;
}

/** A 2xx body must be JSON: an HTML page or nothing where a record is expected is an error. */
function expectJson(run: Run, response: ApiResponse, expected: string): unknown {
	const body = readBody(response.body);
	if (body === undefined) {
		throw apiError(
			run,
			response,
			describeUnexpectedBody(response.status, response.body, expected, run.settings.secrets),
		);
	}
	return body;
}

/**
 * Sends one request until it has an answer to act on: paced, retried on 429/503 (as Retry-After
 * asks) and on connection faults, 502 and 504 (backing off), always with the same request and
 * so the same Idempotency-Key. Returns a 2xx; anything else becomes the item's NodeApiError.
 */
async function send(run: Run, request: ItemRequest): Promise<ApiResponse> {
	const { settings, pacer, signal, wait } = run;
	const state: RetryState = { busyRetries: 0, faultRetries: 0 };
	for (;;) {
		await pacer.nextStart();
		if (signal?.aborted) throw cancelled(run);
		const exchange = await sendApiRequest(run.send, settings.transport, request);
		if (signal?.aborted) throw cancelled(run);
		const response = 'response' in exchange ? exchange.response : undefined;
		const attempt: Attempt =
			'fault' in exchange
				? { kind: 'fault', code: exchange.fault }
				: {
						kind: 'status',
						status: exchange.response.status,
						retryAfter: exchange.response.headers['retry-after'],
					};
		if (response && response.status !== 429) pacer.accepted();
		if (response && response.status < 300) return response;
		const decision = decideRetry(attempt, state, settings.budget);
		if (decision.retry) {
			if (decision.busy) {
				state.busyRetries++;
				if (response?.status === 429) pacer.throttled(decision.delayMs);
				else await wait(decision.delayMs);
			} else {
				state.faultRetries++;
				state.faulted = true;
				await wait(decision.delayMs);
			}
			continue;
		}
		const retries = state.busyRetries + state.faultRetries;
		if ('fault' in exchange) {
			throw apiError(
				run,
				undefined,
				describeFault(exchange.fault, retries, {
					timeoutMs: settings.transport.timeoutMs,
					mutating: !isReadOnly(run.spec),
				}),
			);
		}
		const { status } = exchange.response;
		if (request.idempotencyKey !== undefined && refusesForGood(status)) {
			run.keys?.refused(request.itemIndex, request.idempotencyKey);
		}
		throw apiError(
			run,
			exchange.response,
			failureText(run, exchange.response, decision, retries, request),
		);
	}
}

function failureText(
	run: Run,
	response: ApiResponse,
	decision: ReturnType<typeof decideRetry>,
	retries: number,
	request: ItemRequest,
): ApiErrorText {
	if (!decision.retry && decision.reason === 'retry-after-too-long') {
		return describeLongRetryAfter(decision.waitMs ?? 0, MAX_RETRY_DELAY_MS);
	}
	const text =
		response.status === 409 && request.keyHeldForOtherBody
			? describeKeyHeldForOtherBody(response.body, run.settings.secrets)
			: describeFailedAnswer(response, run.spec, run.settings.secrets);
	if (retries === 0) return text;
	const note = `Gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}.`;
	return { ...text, description: `${text.description} ${note}` };
}

/** The item's NodeApiError: our message, the API's answer as evidence (capped, redacted). */
function apiError(run: Run, response: ApiResponse | undefined, text: ApiErrorText): NodeApiError {
	const parsed = response ? readBody(redact(response.body, run.settings.secrets)) : undefined;
	const errorResponse: JsonObject =
		parsed && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as JsonObject)
			: { status: response?.status ?? 'no answer' };
	return new NodeApiError(run.context.getNode(), errorResponse, {
		message: text.message,
		description: text.description,
		httpCode: response ? String(response.status) : undefined,
	});
}

function cancelled(run: Run): NodeOperationError {
	return new NodeOperationError(run.context.getNode(), 'The execution was cancelled', {
		description: 'No further request was sent.',
	});
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

/** A sleep that wakes when the execution is cancelled: one abort listener for the whole run. */
function sleeper(signal: AbortSignal | undefined): (ms: number) => Promise<void> {
	const aborted = new Promise<void>((resolve) =>
		signal?.addEventListener('abort', () => resolve(), { once: true }),
	);
	return async (ms) => {
		if (signal?.aborted || ms <= 0) return;
		await Promise.race([sleep(ms), aborted]);
	};
}
