import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fitMessage } from '../../shared/message';
import { isObject } from '../../shared/valueAt';
import { rateHeadersOf, type PacerSettings, type RunPacer } from '../rateLimit';
import {
	credentialTestMessage,
	describeApiError,
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
import { Retries, type Outcome, type RetryBudget, type RetryDecision } from './retry';
import {
	sendApiRequest,
	type ItemRequest,
	type ApiResponse,
	type Exchange,
	type Sender,
	type Transport,
} from './transport';

export interface RunSettings {
	budget: RetryBudget;
	pacer: PacerSettings;
	transport: Transport;
	/** Values never to show in an error: the API key and the signing secrets. */
	secrets: string[];
}

export interface Sending {
	node: INode;
	settings: RunSettings;
	send: Sender;
	pacer: RunPacer;
	deadlines: Deadlines;
	/** The capability a 403 means the key lacks (the operation's). */
	capability?: string;
	/** The requests book, pay or change something (a lost answer may have been processed). */
	mutating?: boolean;
	/** Words before every error message, e.g. "Could not load hubs:". */
	prefix?: string;
	/** The credential Test dialog's: a failure in its own words, whole (it shows only the message). */
	credentialTest?: boolean;
}

/** Sends one request, paced and retried as Retries decides: a 2xx, or the item's NodeApiError. */
export async function sendRequest(run: Sending, request: ItemRequest): Promise<ApiResponse> {
	const { settings, pacer, deadlines } = run;
	const retries = new Retries(settings.budget);
	for (;;) {
		const start = await pacer.nextStart();
		if (deadlines.cancelled) {
			if (start) pacer.finished(start, { kind: 'failed' });
			throw cancelled(run);
		}
		if (!start) {
			// The pacer's wait would outlast a tool call's patience: when to try again.
			const waitMs = (pacer.blockedUntil ?? Date.now()) - Date.now();
			throw apiError(run, undefined, describeLongRetryAfter(waitMs, settings.budget.patienceMs));
		}
		const exchange = await sendApiRequest(run.send, settings.transport, request, deadlines);
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
		if (deadlines.cancelled) throw cancelled(run);
		if (response && !decision) return response;
		if (!decision?.retry) {
			const text = failureText(run, exchange, decision!, retries.count, request);
			const error = apiError(run, response, text);
			if ('fault' in exchange) error.context.fault = exchange.fault;
			throw error;
		}
		await deadlines.wait(decision.delayMs);
	}
}

/** Whether every request of the session fails so: 401, 403, unreachable, or not an API error. */
export function failsEveryRequest(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return true;
	if (typeof error.context.fault === 'string') return isUnreachable(error.context.fault);
	return error.httpCode === '401' || error.httpCode === '403';
}

function outcomeOf(exchange: Exchange): Outcome {
	if ('fault' in exchange) return { kind: 'fault', code: exchange.fault };
	const { status, headers } = exchange.response;
	return { kind: 'status', status, retryAfter: headers['retry-after'] };
}

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
		return explained(run, { kind: 'fault', code, timeoutMs }, text);
	}
	const { response } = exchange;
	if (decision.reason === 'retry-after-too-long')
		return describeLongRetryAfter(decision.waitMs ?? 0, settings.budget.patienceMs);
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

/** The credential test's own words for a failure, when it has them, before the pipeline's. */
function explained(run: Sending, failure: Failure, text: ApiErrorText): ApiErrorText {
	const own = run.credentialTest ? credentialTestMessage(failure) : undefined;
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
	const words = run.credentialTest ? { ...text, message } : fitMessage(message, text.description);
	return new NodeApiError(run.node, errorResponse, {
		...words,
		httpCode: response ? String(response.status) : undefined,
	});
}

const cancelled = (run: Sending) =>
	new NodeOperationError(run.node, 'The execution was cancelled', {
		description: 'No further request was sent.',
	});
