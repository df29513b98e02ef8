import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { fitMessage } from '../../shared/message';
import { isObject } from '../../shared/valueAt';
import { rateHeadersOf, type RunPacer } from '../rateLimit';
import {
	describeApiError,
	describeFailure,
	describeFault,
	describeIdempotencyKeyHeld,
	describeLongRetryAfter,
	describeRedirect,
	describeUnexpectedBody,
	isUnreachable,
	retried,
	type ApiErrorText,
	type Failure,
} from './errors';
import { parseJson, redact } from './evidence';
import type { Deadlines } from './answerBounds';
import type { RunSettings } from './settings';
import { MAX_RETRY_DELAY_MS, Retries, type Outcome, type RetryDecision } from './retry';
import {
	sendApiRequest,
	type ApiRequest,
	type ApiResponse,
	type Exchange,
	type Sender,
} from './transport';

/** An item's request, and what its error messages may say about its Idempotency-Key. */
export interface ItemRequest extends ApiRequest {
	itemIndex: number;
	/** The execution this one retries sent the key with another body (RunKeys.sending). */
	idempotencyKeyHeldForOtherBody?: boolean;
	/** What a referent key stands for, e.g. "Quote ID qt_7" (OperationSpec.referent). */
	referent?: string;
}

/** What every request of a session is sent with: its settings, pacer and sender. */
export interface Sending {
	node: INode;
	settings: RunSettings;
	send: Sender;
	pacer: RunPacer;
	signal: AbortSignal | undefined;
	/** Each attempt's end: n8n's Timeout, or the execution cancelled. */
	deadlines: Deadlines;
	/** Sleeps, waking early when the execution is cancelled. */
	wait: (ms: number) => Promise<void>;
	/** The capability a 403 means the key lacks (the operation's). */
	capability?: string;
	/** The requests book, pay or change something (a lost answer may have been processed). */
	mutating: boolean;
	/** Words before every error message, e.g. "Could not load hubs:". */
	prefix?: string;
	/** A caller's own words for a failure (the credential test's); else the pipeline's. */
	explain?: (failure: Failure, said: string) => string | undefined;
}

/** Sends one request, paced and retried as decideRetry says: a 2xx, or the item's NodeApiError. */
export async function sendRequest(run: Sending, request: ItemRequest): Promise<ApiResponse> {
	const { settings, pacer, signal, wait } = run;
	const retries = new Retries(settings.budget);
	for (;;) {
		const start = await pacer.nextStart();
		if (signal?.aborted) {
			if (start) pacer.finished(start, { kind: 'failed' });
			throw cancelled(run);
		}
		if (!start) {
			const waitMs = (pacer.blockedUntil ?? Date.now()) - Date.now();
			throw apiError(run, undefined, longWait(run, waitMs, settings.pacer.patienceMs ?? 0));
		}
		const exchange = await sendApiRequest(run.send, settings.transport, request, run.deadlines);
		const response = 'response' in exchange ? exchange.response : undefined;
		const decision =
			response && response.status < 300 ? undefined : retries.decide(outcomeOf(exchange));
		const headers = response && rateHeadersOf(response.headers);
		pacer.finished(
			start,
			!response
				? { kind: 'failed' }
				: response.status === 429
					? { kind: 'throttled', headers, waitMs: decision?.retry ? decision.delayMs : undefined }
					: { kind: 'accepted', headers },
		);
		if (signal?.aborted) throw cancelled(run);
		if (response && !decision) return response;
		if (decision?.retry) {
			await wait(decision.delayMs);
			continue;
		}
		const text = failureText(run, exchange, decision!, retries.count, request);
		const error = apiError(run, response, text);
		if ('fault' in exchange) error.context.fault = exchange.fault;
		throw error;
	}
}

/** Whether every request of the session fails so: 401, 403, unreachable, or not an API error. */
export function failsEveryRequest(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return true;
	const fault = error.context.fault;
	if (typeof fault === 'string') return isUnreachable(fault);
	return error.httpCode === '401' || error.httpCode === '403';
}

function outcomeOf(exchange: Exchange): Outcome {
	if ('fault' in exchange) return { kind: 'fault', code: exchange.fault };
	const { status, headers } = exchange.response;
	return { kind: 'status', status, retryAfter: headers['retry-after'] };
}

/** A wait (the pacer's, or a Retry-After) longer than the node's patience: when to try again. */
const longWait = ({ settings }: Sending, waitMs: number, patienceMs: number) =>
	describeLongRetryAfter(waitMs, patienceMs, { toolCall: settings.toolCall });

function failureText(
	run: Sending,
	exchange: Exchange,
	decision: Extract<RetryDecision, { retry: false }>,
	retries: number,
	request: ItemRequest,
): ApiErrorText {
	const { settings } = run;
	if ('fault' in exchange) {
		const { fault: code, bytes } = exchange;
		const { timeoutMs } = settings.transport;
		const text = describeFault(code, retries, { timeoutMs, mutating: run.mutating, bytes });
		const unreachable = isUnreachable(code);
		return explained(run, { kind: 'fault', code, timeoutMs, unreachable }, text);
	}
	const { response } = exchange;
	if (decision.reason === 'retry-after-too-long') {
		return longWait(run, decision.waitMs ?? 0, settings.budget.patienceMs ?? MAX_RETRY_DELAY_MS);
	}
	const context = { capability: run.capability, referent: request.referent, prefix: run.prefix };
	const text =
		response.status === 409 && request.idempotencyKeyHeldForOtherBody
			? describeIdempotencyKeyHeld(response.body, settings.secrets, request.referent)
			: response.status >= 300 && response.status < 400
				? describeRedirect(response.status, response.headers.location)
				: describeApiError(response.status, response.body, context, settings.secrets);
	const tried = retries === 0 ? '' : ` Gave up after ${retried(retries)}.`;
	const described = { ...text, description: `${text.description}${tried}` };
	return explained(run, { kind: 'answer', response }, described);
}

/** The caller's own words for a failure, when it has them, before the pipeline's. */
function explained(run: Sending, failure: Failure, text: ApiErrorText): ApiErrorText {
	const own = run.explain?.(failure, describeFailure(failure));
	return own === undefined ? text : { ...text, message: redact(own, run.settings.secrets) };
}

/** A 2xx body must be JSON: an HTML page or nothing where a record is expected is an error. */
export function expectJson(run: Sending, response: ApiResponse, expected: string): unknown {
	const body = parseJson(response.body);
	if (body !== undefined) return body;
	const { secrets } = run.settings;
	const text = describeUnexpectedBody(response.status, response.body, expected, secrets);
	throw apiError(run, response, explained(run, { kind: 'unexpected', response }, text));
}

/** The item's NodeApiError: our message, the API's answer as evidence (capped, redacted). */
export function apiError(
	run: Sending,
	response: ApiResponse | undefined,
	text: ApiErrorText,
): NodeApiError {
	const parsed = response ? parseJson(redact(response.body, run.settings.secrets)) : undefined;
	const errorResponse = (
		isObject(parsed) ? parsed : { status: response?.status ?? 'no answer' }
	) as JsonObject;
	const message = run.prefix ? `${run.prefix} ${text.message}` : text.message;
	// The Test dialog shows only the message: the credential test's own words are whole there.
	const words = run.explain ? { ...text, message } : fitMessage(message, text.description);
	return new NodeApiError(run.node, errorResponse, {
		...words,
		httpCode: response ? String(response.status) : undefined,
	});
}

function cancelled(run: Sending): NodeOperationError {
	return new NodeOperationError(run.node, 'The execution was cancelled', {
		description: 'No further request was sent.',
	});
}

/** A sleep that wakes when the execution is cancelled: one abort listener for the whole run. */
export function sleeper(signal: AbortSignal | undefined): (ms: number) => Promise<void> {
	const aborted = new Promise<void>((resolve) =>
		signal?.addEventListener('abort', () => resolve(), { once: true }),
	);
	return async (ms) => {
		if (signal?.aborted || ms <= 0) return;
		await Promise.race([sleep(ms), aborted]);
	};
}
