import { isObject } from '../../shared/valueAt';
import { MAX_ANSWER_BYTES } from './answerBounds';
import { answerEvidence, evidence, parseJson, redact, safeLocation } from './evidence';
import { TIMEOUT_FAULTS } from './retry';
import type { ApiResponse } from './transport';

/** What the user reads when a request fails: what to do in a line, then why and the evidence. */
export interface ApiErrorText {
	message: string;
	description: string;
}

/** A message is one line: what happened and what to do. The API's words are cut to fit it. */
export const MAX_MESSAGE_CHARS = 120;

/** Why a request ended without a usable answer, for a caller that words it its own way. */
export type Failure =
	| { kind: 'answer' | 'unexpected'; response: ApiResponse }
	| { kind: 'fault'; code: string; timeoutMs: number; unreachable: boolean };

/** What a message may name besides the status: a 403's capability, what a key stands for. */
export interface ErrorContext {
	capability?: string;
	referent?: string;
}

/** An error status's words: the spec shows no error body, so any JSON's usual fields are read. */
export function describeApiError(
	status: number,
	rawBody: string,
	{ capability, referent }: ErrorContext,
	secrets: string[] = [],
): ApiErrorText {
	const { apiMessage = '', field } = readErrorFields(parseJson(rawBody));
	const said = redact(apiMessage, secrets).replace(/[.\s]+$/, '');
	const what = referent || 'what this acts on';
	const words: Array<[boolean, (said: string) => string, string?]> = [
		[
			status === 400,
			(s) =>
				`The API refused the request as invalid (400)${s}${field ? ` [field: ${field}]` : ''}.`,
			'Correct the value and run again.',
		],
		[
			status === 401,
			() =>
				'The API key was refused (401). Paste the key again from the partner portal into the Partner Logistics credential.',
			'It may have been rotated or revoked.',
		],
		[
			status === 403 && capability !== undefined,
			() =>
				`This API key lacks the capability ${capability} (403). Ask your Partner Logistics contact to grant it to the key.`,
			'Or use a credential whose key has it.',
		],
		[
			status === 403,
			(s) =>
				`This API key is not allowed to do this (403)${s}. Ask your contact which capability it needs.`,
			'Your Partner Logistics contact can grant the key the capability.',
		],
		[
			status === 404,
			(s) => `Not found in your organization (404)${s}. Check the ID.`,
			'The API only shows resources that belong to the organization of this API key.',
		],
		[
			status === 409 && referent !== undefined,
			(s) =>
				`Conflict (409)${s}. To send other values for ${what} as a new request, set Options › Idempotency Key.`,
			`This action's Idempotency-Key is derived from ${what}, so it is done once whichever run asks: an earlier request for it with other values holds the key (the API keeps the first), or its state does not allow this (for example an expired quote).`,
		],
		[
			status === 409,
			(s) => `Conflict (409)${s}. Give each action its own Options › Idempotency Key.`,
			"Either this Idempotency-Key was already used for a different request, or the resource is not in a state that allows this (for example an expired quote, or a case that is already closed): then check the resource's state.",
		],
		[
			status === 429,
			(s) =>
				`The API kept rate limiting this key (429)${s}. Lower Options › Concurrency or set Max Requests per Second.`,
			'Sending fewer items per run helps too.',
		],
		[
			status >= 500,
			(s) => `The Partner Logistics API failed (${status})${s}. Try again later.`,
			'A retry sends the same Idempotency-Key, so nothing is booked or paid twice.',
		],
		[true, (s) => `The API answered ${status}${s}.`],
	];
	const [, message, why] = words.find(([applies]) => applies)!;
	const evidenceText = answerEvidence(status, rawBody, secrets);
	return {
		message: fitted(message, said),
		description: why ? `${why} ${evidenceText}` : evidenceText,
	};
}

/** Fewer of the API's words than this say nothing: the message leaves them to the description. */
const MIN_SAID_CHARS = 20;

/** `message` with the API's words (`: …`), cut to keep it within MAX_MESSAGE_CHARS. */
function fitted(message: (said: string) => string, said: string): string {
	const room = MAX_MESSAGE_CHARS - message('').length - 2;
	if (said === '' || room < MIN_SAID_CHARS) return message('');
	if (said.length <= room) return message(`: ${said}`);
	return message(`: ${said.slice(0, room - 1).trimEnd()}…`).replace('….', '…');
}

/** A 409 for a key the execution this one retries sent with another body: the item was changed. */
export function describeKeyHeldForOtherBody(
	rawBody: string,
	secrets: string[],
	referent?: string,
): ApiErrorText {
	// A referent's key is the same in every execution: only an explicit key sends the new values.
	const anew =
		referent === undefined
			? 'set Options › Idempotency Key (the default key is made of the input rows, and a new run of them sends it again until one finishes)'
			: `set Options › Idempotency Key (the default key is derived from ${referent || 'what the action acts on'}, the same in every execution)`;
	return {
		message:
			'Conflict (409): the retried execution sent this item with other values. Retry with the original workflow.',
		description: `It sent it under the same Idempotency-Key; the item or the node was changed since, and the API keeps the first request. To send the new values as a new request, ${anew}. ${answerEvidence(409, rawBody, secrets)}`,
	};
}

/** A 3xx is never followed: the API key must not travel to wherever the Location points. */
export function describeRedirect(status: number, location: string | undefined): ApiErrorText {
	return {
		message: `The API answered with ${redirectWords(status, location)}. Check the credential's Base URL.`,
		description: 'A Base URL with http instead of https, or without /api/v1, answers like this.',
	};
}

const redirectWords = (status: number, location: string | undefined) =>
	`a redirect (${status}) to ${location ? safeLocation(location) : '(no Location header)'}, not followed so the API key stays here`;

/** A 2xx whose body is not the JSON the operation expects (an HTML page, an empty answer). */
export function describeUnexpectedBody(
	status: number,
	rawBody: string,
	expected: string,
	secrets: string[] = [],
): ApiErrorText {
	const what = rawBody.trim() === '' ? 'an empty body' : 'a non-JSON body';
	return {
		message: `The API answered ${status} with ${what} where ${expected} was expected. Check the Base URL.`,
		description: `Nothing is output for this item; a web page or a proxy answers like this. ${answerEvidence(status, rawBody, secrets)}`,
	};
}

/** A fault's words; its code goes in the description, as n8n rewrites a message that holds one. */
export function describeFault(
	code: string,
	retries: number,
	options: { timeoutMs: number; mutating: boolean; bytes?: number },
): ApiErrorText {
	const fault = `Connection fault: ${code}`;
	const processed = options.mutating ? `${RESENT_SAFELY} ` : '';
	if (code === 'E_ANSWER_TOO_LARGE') {
		return {
			message: `The API's answer grew past the ${MAX_ANSWER_BYTES / 1048576} MiB an answer may hold; the node stopped reading. Check the credential's Base URL.`,
			description: `More than ${(options.bytes ?? 0).toLocaleString('en-US')} bytes came once decompressed. No answer of this API comes near that size: its largest are lists of records of about a kilobyte. A compressed answer that inflates without end, or a server that is not the API, answers like this. ${processed}${fault}`,
		};
	}
	const what = describeFaultCode(code, options.timeoutMs);
	const tried = retries > 0 ? ` after ${retried(retries)}` : '';
	if (isUnreachable(code)) {
		return { message: `${what}${tried}. Check the credential's Base URL.`, description: fault };
	}
	if (!options.mutating) {
		return {
			message: `${what}${tried}. Try again later.`,
			description: `Or raise the Timeout under the node Settings › Request Options. ${fault}`,
		};
	}
	return {
		message: `${what}${tried}. Running the item again is safe.`,
		description: `${processed}${fault}`,
	};
}

/** Said wherever an answer was lost: the request may have been processed all the same. */
const RESENT_SAFELY =
	'The API may have processed the request: running it again resends the same Idempotency-Key, so nothing is booked or paid twice.';

/** What a connection fault was, in words. */
function describeFaultCode(code: string, timeoutMs: number): string {
	// Tenths below 10 s: a Timeout of 300 ms is "0.3 s", not "0 s".
	const seconds = Number((timeoutMs / 1000).toFixed(timeoutMs < 10_000 ? 1 : 0));
	return code === 'E_ANSWER_STALLED'
		? `The API stopped sending partway: no whole answer within ${seconds} s (timeout)`
		: TIMEOUT_FAULTS.includes(code)
			? `No answer from the API within ${seconds} s (timeout)`
			: isUnreachable(code)
				? 'Could not connect to the API'
				: 'The connection to the API broke before it answered';
}

export const isUnreachable = (code: string) => ['ECONNREFUSED', 'ENOTFOUND'].includes(code);

/**
 * What came back (or did not), in words, for a caller with its own advice (the credential test):
 * a fault's meaning and code, a redirect's target, an empty answer, or the answer as evidence.
 */
export function describeFailure(failure: Failure): string {
	if (failure.kind === 'fault') {
		return `${describeFaultCode(failure.code, failure.timeoutMs)} (${failure.code})`;
	}
	const { status, body, headers } = failure.response;
	if (failure.kind === 'answer' && status >= 300 && status < 400) {
		return redirectWords(status, headers.location);
	}
	return failure.kind === 'unexpected' && body.trim() === '' ? 'an empty answer' : evidence(body);
}

/** "1 retry", "3 retries". */
export const retried = (count: number) => `${count} ${count === 1 ? 'retry' : 'retries'}`;

/**
 * A Retry-After longer than the node waits: when to try again, not "raise Max Retries". An agent's
 * tool call (`toolCall`) waits a few seconds at most; told the time, it can answer or call again.
 */
export function describeLongRetryAfter(
	waitMs: number,
	maxWaitMs: number,
	{ now = Date.now(), toolCall = false }: { now?: number; toolCall?: boolean } = {},
): ApiErrorText {
	const seconds = Math.max(1, Math.ceil(waitMs / 1000));
	const after = new Date(now + seconds * 1000).toISOString().slice(11, 19);
	const waiter = toolCall ? 'a tool call waits' : 'this node waits';
	return {
		message: `The API asked to wait ${seconds} s (Retry-After), longer than the ${maxWaitMs / 1000} s ${waiter}. Try again after ${after} UTC.`,
		description: `Nothing more was sent for this ${toolCall ? 'call' : 'item'}. More retries would not help: the API refuses requests until its Retry-After has passed.`,
	};
}

function readErrorFields(body: unknown): { apiMessage?: string; field?: string } {
	if (!isObject(body)) return {};
	const nested = isObject(body.error) ? body.error : {};
	const text = (value: unknown) =>
		typeof value === 'string' && value ? value.slice(0, 300) : undefined;
	return {
		apiMessage: text(body.message) ?? text(nested.message) ?? text(body.error) ?? text(body.detail),
		field: text(body.field) ?? text(nested.field),
	};
}
