import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import {
	describeFailedAnswer,
	describeFault,
	describeKeyHeldForOtherBody,
	describeLongRetryAfter,
	describeUnexpectedBody,
	readBody,
	redact,
	type ApiErrorText,
} from './errors';
import { refusesForGood, type RunKeys } from './keys';
import { rateHeadersOf } from './keyLimit';
import { Pacer } from './pacer';
import { pacerClock, pacerOf } from './pacers';
import { MAX_RETRY_DELAY_MS, Retries, type Attempt, type RetryDecision } from './retry';
import type { RunSettings } from './runSettings';
import { sendApiRequest, type ApiRequest, type ApiResponse, type Sender } from './transport';

/** An item's request, and whether its key was already used for another body (see RunKeys). */
export interface ItemRequest extends ApiRequest {
	itemIndex: number;
	keyHeldForOtherBody?: boolean;
	/** What a referent key stands for, e.g. "Quote ID qt_7" (OperationSpec.referent). */
	referent?: string;
}

/** What every request of a run is sent with: the run's settings, pacer, sender and keys. */
export interface Sending {
	node: INode;
	settings: RunSettings;
	send: Sender;
	pacer: Pacer;
	signal: AbortSignal | undefined;
	/** Sleeps, waking early when the execution is cancelled. */
	wait: (ms: number) => Promise<void>;
	/** The capability a 403 means the key lacks (the operation's). */
	capability?: string;
	/** The requests book, pay or change something (a lost answer may have been processed). */
	mutating: boolean;
	keys?: RunKeys;
	/** Words before every error message, e.g. "Could not load hubs:". */
	prefix?: string;
}

/**
 * The sending of a run: paced with every other sender on its API key in this n8n process (the
 * key's pacer, see pacers.ts) and by its own settings, cancelled with its execution.
 */
export function sending(
	node: INode,
	settings: RunSettings,
	send: Sender,
	signal: AbortSignal | undefined,
	options: Pick<Sending, 'capability' | 'mutating' | 'keys' | 'prefix'>,
): Sending {
	const wait = sleeper(signal);
	const { baseUrl, credentials } = settings.transport;
	const key = pacerOf(baseUrl, String(credentials.data?.apiKey ?? ''));
	const pacer = new Pacer(key, settings.pacer, pacerClock, signal);
	return { node, settings, send, pacer, signal, wait, ...options };
}

/**
 * Sends one request until it has an answer to act on: paced, retried on 429/503 (as Retry-After
 * asks) and on connection faults, 502 and 504 (backing off), always with the same request and
 * so the same Idempotency-Key. Returns a 2xx; anything else becomes the item's NodeApiError.
 */
export async function sendRequest(run: Sending, request: ItemRequest): Promise<ApiResponse> {
	const { settings, pacer, signal, wait } = run;
	const retries = new Retries(settings.budget);
	for (;;) {
		const start = await pacer.nextStart();
		if (signal?.aborted) {
			if (start) pacer.failed(start);
			throw cancelled(run);
		}
		if (!start) throw apiError(run, undefined, tooLongToWait(run, pacer.blockedUntil));
		const exchange = await sendApiRequest(run.send, settings.transport, request);
		const response = 'response' in exchange ? exchange.response : undefined;
		const rate = response && rateHeadersOf(response.headers);
		if (response && response.status !== 429) pacer.accepted(start, rate);
		else if (!response) pacer.failed(start);
		if (response && response.status < 300) {
			if (signal?.aborted) throw cancelled(run);
			return response;
		}
		const attempt: Attempt = response
			? { kind: 'status', status: response.status, retryAfter: response.headers['retry-after'] }
			: { kind: 'fault', code: (exchange as { fault: string }).fault };
		const decision = retries.next(attempt);
		if (response?.status === 429) {
			pacer.throttled(start, {
				headers: rate,
				waitMs: decision.retry ? decision.delayMs : undefined,
			});
		}
		if (signal?.aborted) throw cancelled(run);
		if (decision.retry) {
			await wait(decision.delayMs);
			continue;
		}
		if ('fault' in exchange) {
			throw apiError(
				run,
				undefined,
				describeFault(exchange.fault, retries.count, {
					timeoutMs: settings.transport.timeoutMs,
					mutating: run.mutating,
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
			failureText(run, exchange.response, decision, retries.count, request),
		);
	}
}

/** A start that could not come within the patience of an agent's tool call. */
function tooLongToWait(run: Sending, until: number | undefined): ApiErrorText {
	return describeLongRetryAfter(
		(until ?? Date.now()) - Date.now(),
		run.settings.pacer.patienceMs ?? 0,
		{
			toolCall: run.settings.toolCall,
		},
	);
}

function failureText(
	run: Sending,
	response: ApiResponse,
	decision: RetryDecision,
	retries: number,
	request: ItemRequest,
): ApiErrorText {
	if (!decision.retry && decision.reason === 'retry-after-too-long') {
		const { patienceMs } = run.settings.budget;
		return describeLongRetryAfter(decision.waitMs ?? 0, patienceMs ?? MAX_RETRY_DELAY_MS, {
			toolCall: run.settings.toolCall,
		});
	}
	const text =
		response.status === 409 && request.keyHeldForOtherBody
			? describeKeyHeldForOtherBody(response.body, run.settings.secrets, request.referent)
			: describeFailedAnswer(
					response,
					{ capability: run.capability, referent: request.referent },
					run.settings.secrets,
				);
	if (retries === 0) return text;
	const note = `Gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}.`;
	return { ...text, description: `${text.description} ${note}` };
}

/** A 2xx body must be JSON: an HTML page or nothing where a record is expected is an error. */
export function expectJson(run: Sending, response: ApiResponse, expected: string): unknown {
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

/** The item's NodeApiError: our message, the API's answer as evidence (capped, redacted). */
export function apiError(
	run: Sending,
	response: ApiResponse | undefined,
	text: ApiErrorText,
): NodeApiError {
	const parsed = response ? readBody(redact(response.body, run.settings.secrets)) : undefined;
	const errorResponse: JsonObject =
		parsed && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as JsonObject)
			: { status: response?.status ?? 'no answer' };
	return new NodeApiError(run.node, errorResponse, {
		message: run.prefix ? `${run.prefix} ${text.message}` : text.message,
		description: text.description,
		httpCode: response ? String(response.status) : undefined,
	});
}

function cancelled(run: Sending): NodeOperationError {
	return new NodeOperationError(run.node, 'The execution was cancelled', {
		description: 'No further request was sent.',
	});
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
