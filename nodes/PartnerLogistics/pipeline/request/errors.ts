import { isObject } from '../../shared/valueAt';
import { MAX_ANSWER_BYTES } from './answer';
import { TIMEOUT_FAULTS } from './retry';

/** What the user reads when a request fails: what happened and what to do, and the evidence. */
export interface ApiErrorText {
	message: string;
	description: string;
}

/** Error descriptions stay readable in the editor and in logs: the API's body is cut here. */
export const MAX_DESCRIPTION_CHARS = 2000;

/** What a message may name besides the status: a 403's capability, what a key stands for. */
export interface ErrorContext {
	capability?: string;
	referent?: string;
}

/** An error status's words: the spec shows no error body, so any JSON's usual fields are read. */
export function describeApiError(
	status: number,
	rawBody: string,
	operation: ErrorContext,
	secrets: string[] = [],
): ApiErrorText {
	const { apiMessage, field } = readErrorFields(readBody(rawBody));
	const said = apiMessage ? `: ${redact(apiMessage, secrets).replace(/[.\s]+$/, '')}` : '';
	const [message, why] = errorWords(status, said, field, operation);
	const evidenceText = answered(status, rawBody, secrets);
	return { message, description: why ? `${why} ${evidenceText}` : evidenceText };
}

/** An error status's message (what happened, what to do) and why, for the description. */
function errorWords(
	status: number,
	said: string,
	field: string | undefined,
	{ capability, referent }: ErrorContext,
): [message: string, why?: string] {
	switch (true) {
		case status === 400:
			return [
				`The API refused the request as invalid (400)${said}${field ? ` [field: ${field}]` : ''}. Correct the value and run again.`,
			];
		case status === 401:
			return [
				'The API key was refused (401). Paste the key again from the partner portal into the Partner Logistics credential.',
				'It may have been rotated or revoked.',
			];
		case status === 403 && capability !== undefined:
			return [
				`This API key lacks the capability ${capability} (403). Ask your Partner Logistics contact to grant ${capability} to the key, or use a credential whose key has it.`,
			];
		case status === 403:
			return [
				`This API key is not allowed to do this (403)${said}. Ask your Partner Logistics contact which capability the key needs.`,
			];
		case status === 404:
			return [
				`Not found in your organization (404)${said}. Check the ID.`,
				'The API only shows resources that belong to the organization of this API key.',
			];
		case status === 409 && referent !== undefined:
			return [
				`Conflict (409)${said}. To send other values for ${referent || 'what this acts on'} as a new request, set Options › Idempotency Key.`,
				`This action's Idempotency-Key is derived from ${referent || 'what it acts on'}, so it is done once whichever run asks: an earlier request for it with other values holds the key (the API keeps the first), or its state does not allow this (for example an expired quote).`,
			];
		case status === 409:
			return [
				`Conflict (409)${said}. Give each action its own Options › Idempotency Key, or check the resource's state.`,
				'Either this Idempotency-Key was already used for a different request, or the resource is not in a state that allows this (for example an expired quote, or a case that is already closed).',
			];
		case status === 429:
			return [
				`The API kept rate limiting this key (429)${said}. Lower Options › Concurrency or set Options › Max Requests per Second.`,
				'Sending fewer items per run helps too.',
			];
		case status >= 500:
			return [
				`The Partner Logistics API failed (${status})${said}. Try again later.`,
				'A retry sends the same Idempotency-Key, so nothing is booked or paid twice.',
			];
		default:
			return [`The API answered ${status}${said}.`];
	}
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
			? 'run the workflow again instead of retrying it (a new execution uses new keys) or set Options › Idempotency Key'
			: `set Options › Idempotency Key (the default key is derived from ${referent || 'what the action acts on'}, the same in every execution)`;
	return {
		message:
			'Conflict (409): the execution this one retries already sent this item under the same Idempotency-Key with other values. To keep what was done then, retry with the original workflow.',
		description: `The item or the node was changed since, and the API keeps the first request. To send the new values as a new request, ${anew}. ${answered(409, rawBody, secrets)}`,
	};
}

/** A 3xx is never followed: the API key must not travel to wherever the Location points. */
export function describeRedirect(status: number, location: string | undefined): ApiErrorText {
	const target = location ? safeLocation(location) : '(no Location header)';
	return {
		message: `The API answered with a redirect (${status}) to ${target}, which was not followed so the API key is not sent elsewhere. Check the credential's Base URL.`,
		description: `A Base URL with http instead of https, or without /api/v1, answers like this. Location: ${target}`,
	};
}

/** A 2xx whose body is not the JSON the operation expects (an HTML page, an empty answer). */
export function describeUnexpectedBody(
	status: number,
	rawBody: string,
	expected: string,
	secrets: string[] = [],
): ApiErrorText {
	const what = rawBody.trim() === '' ? 'an empty body' : 'a body that is not JSON';
	return {
		message: `The API answered ${status} with ${what} where ${expected} was expected. Check that the credential's Base URL points at the API.`,
		description: `Nothing is output for this item; a web page or a proxy answers like this. ${answered(status, rawBody, secrets)}`,
	};
}

/** A fault's words; its code goes in the description, as n8n rewrites a message that holds one. */
export function describeFault(
	code: string,
	retries: number,
	options: { timeoutMs: number; mutating: boolean; bytes?: number },
): ApiErrorText {
	if (code === 'E_ANSWER_TOO_LARGE') return describeTooLarge(options);
	const what = describeFaultCode(code, options.timeoutMs);
	const tried = retries > 0 ? ` after ${retried(retries)}` : '';
	const fault = `Connection fault: ${code}`;
	if (isUnreachable(code)) {
		return { message: `${what}${tried}. Check the credential's Base URL.`, description: fault };
	}
	if (!options.mutating) {
		return {
			message: `${what}${tried}. Try again later, or raise the Timeout under the node Settings › Request Options.`,
			description: fault,
		};
	}
	return {
		message: `${what}${tried}. Running the item again is safe.`,
		description: `${RESENT_SAFELY} ${fault}`,
	};
}

/** Said wherever an answer was lost: the request may have been processed all the same. */
const RESENT_SAFELY =
	'The API may have processed the request: running it again resends the same Idempotency-Key, so nothing is booked or paid twice.';

/** An answer past MAX_ANSWER_BYTES is not one to try again: it would be as large again. */
function describeTooLarge({ bytes = 0, mutating }: { bytes?: number; mutating: boolean }) {
	const processed = mutating ? ` ${RESENT_SAFELY}` : '';
	return {
		message: `The API's answer grew past the ${MAX_ANSWER_BYTES / 1048576} MiB an answer may hold (more than ${bytes.toLocaleString('en-US')} bytes once decompressed), so the node stopped reading it. Check that the credential's Base URL points at the Partner Logistics API.`,
		description: `No answer of this API comes near that size: its largest are lists of records of about a kilobyte. A compressed answer that inflates without end, or a server that is not the API, answers like this.${processed} Connection fault: E_ANSWER_TOO_LARGE`,
	};
}

/** What a connection fault was, in words. */
export function describeFaultCode(code: string, timeoutMs: number): string {
	// Tenths below 10 s: a Timeout of 300 ms is "0.3 s", not "0 s".
	const seconds = Number((timeoutMs / 1000).toFixed(timeoutMs < 10_000 ? 1 : 0));
	return code === 'E_ANSWER_STALLED'
		? `The API started answering and then stopped sending: no whole answer within ${seconds} s (timeout)`
		: TIMEOUT_FAULTS.includes(code)
			? `No answer from the API within ${seconds} s (timeout)`
			: isUnreachable(code)
				? 'Could not connect to the API'
				: 'The connection to the API broke before it answered';
}

export const isUnreachable = (code: string) => ['ECONNREFUSED', 'ENOTFOUND'].includes(code);

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
		message: `The API asked to wait ${seconds} s before trying again (Retry-After), longer than the ${maxWaitMs / 1000} s ${waiter}. Try again after ${after} UTC.`,
		description: `Nothing more was sent for this ${toolCall ? 'call' : 'item'}. More retries would not help: the API refuses requests until its Retry-After has passed.`,
	};
}

/** The body as JSON, or undefined when it is not JSON. */
export function readBody(rawBody: string): unknown {
	if (rawBody.trim() === '') return undefined;
	try {
		return JSON.parse(rawBody) as unknown;
	} catch {
		return undefined;
	}
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

/** A description's last words: what the API answered, as evidence. */
export const answered = (status: number, rawBody: string, secrets: string[]) =>
	`The API answered ${status} with: ${evidence(rawBody, secrets)}`;

/** The body as evidence: HTML reduced to its title, everything capped and secrets redacted. */
export function evidence(rawBody: string, secrets: string[] = []): string {
	if (rawBody.trim() === '') return '(no body)';
	let text = rawBody;
	if (/^\s*</.test(rawBody)) {
		const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(rawBody)?.[1]?.trim();
		text = `an HTML page${title ? ` titled "${title.replace(/\s+/g, ' ').slice(0, 200)}"` : ''}`;
	}
	text = redact(text, secrets);
	return text.length > MAX_DESCRIPTION_CHARS
		? `${text.slice(0, MAX_DESCRIPTION_CHARS)}… (${text.length - MAX_DESCRIPTION_CHARS} more characters cut)`
		: text;
}

/** Replaces every occurrence of a secret (API key, signing secret) with a marker. */
export function redact(text: string, secrets: string[]): string {
	return secrets
		.filter((secret) => secret.length >= 4)
		.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** A Location without credentials or query (they may carry tokens), for the message. */
function safeLocation(location: string): string {
	try {
		const url = new URL(location);
		return `${url.protocol}//${url.host}${url.pathname}`;
	} catch {
		return location.split('?')[0].slice(0, 200);
	}
}
