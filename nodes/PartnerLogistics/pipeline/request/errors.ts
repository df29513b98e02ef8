import { clip, MAX_MESSAGE_CHARS } from '../../shared/message';
import { isObject } from '../../shared/valueAt';
import { MAX_ANSWER_BYTES } from './answerBounds';
import { answerEvidence, evidence, parseJson, redact, safeLocation } from './evidence';
import { MAX_RETRY_DELAY_MS, TIMEOUT_FAULTS } from './retry';
import type { ApiResponse } from './transport';

/** What the user reads when a request fails: what to do in a line, then why and the evidence. */
export type ApiErrorText = Record<'message' | 'description', string>;
/** Why a request ended without a usable answer, as the credential test words it. */
export type Failure =
	| { kind: 'answer' | 'unexpected'; response: ApiResponse }
	| { kind: 'fault'; code: string; timeoutMs: number };

/** An error status's words; the spec shows no error body, so any JSON's usual fields are read. */
export function describeApiError(
	status: number,
	rawBody: string,
	context: { capability?: string; referent?: string; prefix?: string },
	secrets: string[] = [],
): ApiErrorText {
	const { capability, referent, prefix = '' } = context;
	const body = parseJson(rawBody);
	const fields = isObject(body) ? body : {};
	const nested = isObject(fields.error) ? fields.error : {};
	const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 300) : '');
	const apiMessage =
		text(fields.message) || text(nested.message) || text(fields.error) || text(fields.detail);
	const field = text(fields.field) || text(nested.field);
	const said = redact(apiMessage, secrets).replace(/[.\s]+$/, '');
	const what = referent || 'what this acts on';
	// %s: where the API's own words go, when they fit.
	const words: Array<[boolean, string, string?]> = [
		[
			status === 400,
			`The API refused the request as invalid (400)%s${field ? ` [field: ${field}]` : ''}.`,
			'Correct the value and run again.',
		],
		[
			status === 401,
			'The API key was refused (401). Paste the key again from the partner portal into the Partner Logistics credential.',
			'It may have been rotated or revoked.',
		],
		[
			status === 403 && capability !== undefined,
			`This API key lacks the capability ${capability} (403). Ask your Partner Logistics contact to grant it to the key.`,
			'Or use a credential whose key has it.',
		],
		[
			status === 403,
			'This API key is not allowed to do this (403)%s. Ask your contact which capability it needs.',
			'Your Partner Logistics contact can grant the key the capability.',
		],
		[
			status === 404,
			'Not found in your organization (404)%s. Check the ID.',
			'The API only shows resources that belong to the organization of this API key.',
		],
		[
			status === 409 && referent !== undefined,
			`Conflict (409)%s. To send other values for ${clip(what, 40)} as a new request, set Options › Idempotency Key.`,
			`This action's Idempotency-Key is derived from ${what}, so it is done once whichever run asks: an earlier request for it with other values holds the key (the API keeps the first), or its state does not allow this (for example an expired quote).`,
		],
		[
			status === 409,
			'Conflict (409)%s. Give each action its own Options › Idempotency Key.',
			"Either this Idempotency-Key was already used for a different request, or the resource is not in a state that allows this (for example an expired quote, or a case that is already closed): then check the resource's state.",
		],
		[
			status === 429,
			'The API kept rate limiting this key (429)%s. Lower Options › Concurrency or set Max Requests per Second.',
			'Sending fewer items per run helps too.',
		],
		[
			status >= 500,
			`The Partner Logistics API failed (${status})%s. Try again later.`,
			'A retry sends the same Idempotency-Key, so nothing is booked or paid twice.',
		],
		[true, `The API answered ${status}%s.`],
	];
	const [, message, why] = words.find(([applies]) => applies)!;
	// The API's words fill what the message leaves after `prefix`; fewer than 20 say nothing.
	const room = MAX_MESSAGE_CHARS - (prefix ? prefix.length + 1 : 0) - message.length;
	const fits = said !== '' && room >= 20;
	return {
		message: message.replace('%s', () => (fits ? `: ${clip(said, room)}` : '')).replace('….', '…'),
		description: `${why ? `${why} ` : ''}${answerEvidence(status, rawBody, secrets)}`,
	};
}

/** A 409 for a key the execution this one retries sent with another body: the item was changed. */
export function describeIdempotencyKeyHeld(
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
		message: `The API answered with a redirect (${status}), not followed so the API key stays here. Check the credential's Base URL.`,
		description: `It pointed to ${safeLocation(location)}. A Base URL with http instead of https, or without /api/v1, answers like this.`,
	};
}

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
	{ timeoutMs, mutating, bytes = 0 }: { timeoutMs: number; mutating?: boolean; bytes?: number },
): ApiErrorText {
	const fault = `Connection fault: ${code}`;
	// Wherever an answer was lost, the request may have been processed all the same.
	const processed = mutating
		? 'The API may have processed the request: running it again resends the same Idempotency-Key, so nothing is booked or paid twice. '
		: '';
	if (code === 'E_ANSWER_TOO_LARGE')
		return {
			message: `The API's answer grew past the ${MAX_ANSWER_BYTES / 1048576} MiB an answer may hold; the node stopped reading. Check the credential's Base URL.`,
			description: `More than ${bytes.toLocaleString('en-US')} bytes came once decompressed. No answer of this API comes near that size: its largest are lists of records of about a kilobyte. A compressed answer that inflates without end, or a server that is not the API, answers like this. ${processed}${fault}`,
		};
	const what = `${describeFaultCode(code, timeoutMs)}${retries > 0 ? ` after ${retried(retries)}` : ''}`;
	if (isUnreachable(code))
		return { message: `${what}. Check the credential's Base URL.`, description: fault };
	return mutating
		? { message: `${what}. Running the item again is safe.`, description: `${processed}${fault}` }
		: {
				message: `${what}. Try again later.`,
				description: `Or raise the Timeout under the node Settings › Request Options. ${fault}`,
			};
}

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

const TEST_STATUS_WORDS: Record<number, string> = {
	401: 'The API key was refused (401). Copy the key again from the partner portal; it may have been rotated or revoked.',
	403: 'The API key is valid but may not list hubs (403). Ask your Partner Logistics contact to enable it for this organization.',
	404: 'Nothing answers at this Base URL (404). Check that it is the API address and ends in /api/v1.',
	429: 'The API is rate limiting this key right now (429). Test again in a moment.',
};

/** The Test dialog's words: what came instead of the hubs, then what to do; none for a huge answer. */
export function credentialTestMessage(failure: Failure): string | undefined {
	if (failure.kind === 'fault') {
		const { code } = failure;
		if (code === 'E_ANSWER_TOO_LARGE') return undefined;
		const advice = isUnreachable(code)
			? "Check the credential's Base URL and that this n8n can reach it."
			: 'Try the test again; if it keeps failing, check the Base URL.';
		return `${describeFaultCode(code, failure.timeoutMs)} (${code}). ${advice}`;
	}
	const { status, body, headers } = failure.response;
	if (failure.kind === 'unexpected') {
		const said = body.trim() === '' ? 'an empty answer' : evidence(body);
		return `The Base URL answered ${status} with ${said} instead of the API's list of hubs. Check that it ends in /api/v1.`;
	}
	if (status >= 300 && status < 400)
		return `The API answered with a redirect (${status}) to ${safeLocation(headers.location)}, not followed so the API key stays here. Check the credential's Base URL.`;
	if (TEST_STATUS_WORDS[status]) return TEST_STATUS_WORDS[status];
	if (status >= 500)
		return `The Partner Logistics API failed (${status}): ${evidence(body)}. Test again later.`;
	return `The API answered ${status}: ${evidence(body)}`;
}

export const retried = (count: number) => `${count} ${count === 1 ? 'retry' : 'retries'}`;

/** A wait longer than a tool call's patience, or than the minute a node waits: when to try again. */
export function describeLongRetryAfter(waitMs: number, toolPatienceMs?: number): ApiErrorText {
	const seconds = Math.max(1, Math.ceil(waitMs / 1000));
	const after = new Date(Date.now() + seconds * 1000).toISOString().slice(11, 19);
	const waiter = toolPatienceMs
		? `${toolPatienceMs / 1000} s a tool call`
		: `${MAX_RETRY_DELAY_MS / 1000} s this node`;
	return {
		message: `The API asked to wait ${seconds} s (Retry-After), longer than the ${waiter} waits. Try again after ${after} UTC.`,
		description: `Nothing more was sent for this ${toolPatienceMs ? 'call' : 'item'}. More retries would not help: the API refuses requests until its Retry-After has passed.`,
	};
}
