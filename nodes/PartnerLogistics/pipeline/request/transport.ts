import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import { PartnerLogisticsApi } from '../../../../credentials/PartnerLogisticsApi.credentials';
import { AnswerTooLarge, Deadlines, readBoundedBody } from './answerBounds';

export const CREDENTIAL_TYPE = 'partnerLogisticsApi';
const credential = new PartnerLogisticsApi();

/** One HTTP exchange, as the pipeline reads it: the body stays text until it is checked. */
export interface ApiResponse {
	status: number;
	headers: Record<string, string | undefined>;
	body: string;
}

export interface ApiRequest {
	method: 'GET' | 'POST';
	url: string;
	qs?: IDataObject;
	body?: IDataObject;
	idempotencyKey?: string;
}

/** Transport settings of one node run: n8n's Request Options and the credential, read once. */
export interface Transport {
	credentials: ICredentialDataDecryptedObject;
	baseUrl: string;
	timeoutMs: number;
	proxy?: IHttpRequestOptions['proxy'];
	skipSslCertificateValidation: boolean;
}

/** An answer, or a fault: its code, or ours (E_ANSWER_STALLED, E_ANSWER_TOO_LARGE with `bytes`). */
export type Exchange = { response: ApiResponse } | { fault: string; bytes?: number };

/** A credential's transport: a run passes its Request Options; the hub picker, the defaults. */
export function transportOf(
	credentials: ICredentialDataDecryptedObject,
	options: Partial<Omit<Transport, 'credentials' | 'baseUrl'>> & { timeoutMs: number },
): Transport {
	return {
		credentials,
		// No trailing slash: every path starts with one.
		baseUrl: String(credentials.baseUrl ?? '').replace(/\/+$/, ''),
		skipSslCertificateValidation: false,
		...options,
	};
}

/** An answer whose body is a stream; n8n's legacy helper also hands over its request. */
export type SentResponse = IN8nHttpFullResponse & { request?: { destroy(): void } };

/** How one request leaves n8n; the answer comes back whatever its status, never redirected. */
export type Sender = (options: IHttpRequestOptions) => Promise<SentResponse>;

/**
 * The sender of a run, a poll and the hub picker: n8n's `httpRequest`, the key header from the
 * credential's `authenticate`, decrypted once per run. Not `httpRequestWithAuthentication`: in a
 * run it puts the execution's cancel signal in place of the attempt's (n8n-core authentication.js):
 * in n8n 2.x, an answer gone quiet after its headers would keep its socket open past the attempt.
 */
export function authenticatedSender(
	context: IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions,
	transport: Transport,
): Sender {
	return async (options) =>
		(await context.helpers.httpRequest(
			await credential.authenticate(transport.credentials, options),
		)) as SentResponse;
}

/** The Test button's sender: n8n gives a credential test only its legacy `request` helper. */
export function credentialTestSender(
	context: ICredentialTestFunctions,
	credentials: ICredentialDataDecryptedObject,
): Sender {
	return async (options) => {
		const { headers } = await credential.authenticate(credentials, options);
		return (await context.helpers.request({
			method: options.method,
			uri: `${options.baseURL}${options.url}`,
			qs: options.qs,
			headers,
			body: options.body,
			json: false,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: options.timeout,
			// A stream. The helper takes no signal: a late or huge answer ends by destroying the request.
			useStream: true,
		})) as SentResponse;
	};
}

/**
 * Sends one request: no redirect followed (the key must not travel), no status thrown, the body
 * read as text within n8n's Timeout and MAX_ANSWER_BYTES (the session's `deadlines`).
 */
export async function sendApiRequest(
	send: Sender,
	transport: Transport,
	request: ApiRequest,
	deadlines = new Deadlines(transport.timeoutMs),
): Promise<Exchange> {
	const attempt = deadlines.start();
	let response: SentResponse | undefined;
	try {
		response = await send({ ...requestOptions(transport, request), abortSignal: attempt.signal });
		const body = await readBoundedBody(response.body, attempt.signal);
		const headers = lowerCaseHeaders(response.headers);
		return { response: { status: response.statusCode, headers, body } };
	} catch (error) {
		// The legacy helper's socket, whatever state its stream is in.
		response?.request?.destroy();
		if (error instanceof AnswerTooLarge) return { fault: 'E_ANSWER_TOO_LARGE', bytes: error.bytes };
		if (attempt.cancelled()) return { fault: 'ERR_CANCELED' };
		// Our deadline: before the headers no answer came, after them it stopped coming. (axios
		// reports either as "canceled", a word n8n reads as a cancelled execution.)
		if (attempt.signal.aborted) return { fault: response ? 'E_ANSWER_STALLED' : 'ETIMEDOUT' };
		return { fault: faultCode(error) };
	} finally {
		attempt.release();
	}
}

/** How a request leaves n8n: one description for the request sent and the request previewed. */
function requestOptions(transport: Transport, request: ApiRequest): IHttpRequestOptions {
	const headers: IDataObject = { Accept: 'application/json', 'Content-Type': 'application/json' };
	if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
	return {
		method: request.method,
		baseURL: transport.baseUrl,
		url: request.url,
		qs: request.qs,
		headers,
		// A string, so an empty object is still sent as {} (n8n drops empty object bodies).
		body: request.body === undefined ? undefined : JSON.stringify(request.body),
		encoding: 'stream',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		// axios' own timer: connecting and the headers; the whole answer is sendApiRequest's.
		timeout: transport.timeoutMs,
		proxy: transport.proxy,
		skipSslCertificateValidation: transport.skipSslCertificateValidation,
	};
}

/** What `sendApiRequest` would send, nothing sent: the URL as n8n encodes it, the key signed in. */
export async function previewRequest(transport: Transport, request: ApiRequest) {
	const options = requestOptions(transport, request);
	const { headers = {} } = await credential.authenticate(transport.credentials, options);
	const query = Object.entries(request.qs ?? {})
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
		.join('&');
	return {
		method: request.method,
		url: `${transport.baseUrl}${request.url}${query ? `?${query}` : ''}`,
		headers: headers as IDataObject,
		...(request.body && { body: request.body }),
	};
}

/** The error code of a failed request, looked up through n8n's and axios' wrappers. */
function faultCode(error: unknown): string {
	for (let cause = error, depth = 0; cause && depth < 5; depth++) {
		const record = cause as Record<string, unknown>;
		// n8n 1.x wraps the error in a NodeApiError without its cause: the code is its httpCode.
		for (const code of [record.code, record.httpCode]) {
			if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		}
		const message = typeof record.message === 'string' ? record.message : '';
		if (/socket hang up/i.test(message)) return 'ECONNRESET';
		if (/timeout of \d+ms exceeded/i.test(message)) return 'ECONNABORTED';
		cause = record.cause;
	}
	return 'EUNKNOWN';
}

function lowerCaseHeaders(headers: unknown): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {};
	if (!headers || typeof headers !== 'object') return result;
	for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
		result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return result;
}
