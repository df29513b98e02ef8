import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	RequestHelperFunctions,
} from 'n8n-workflow';

import { PartnerLogisticsApi } from '../../../../credentials/PartnerLogisticsApi.credentials';
import { Deadlines, readBoundedBody } from './answerBounds';
import { redact } from './evidence';

const credential = new PartnerLogisticsApi();
export const CREDENTIAL_TYPE = credential.name;

/** One HTTP exchange, as the pipeline reads it: the body stays text until it is checked. */
export interface ApiResponse {
	status: number;
	headers: Record<string, string | undefined>;
	body: string;
}

export interface ItemRequest {
	method: 'GET' | 'POST';
	url: string;
	qs?: IDataObject;
	body?: IDataObject;
	idempotencyKey?: string;
	itemIndex: number;
	/** The execution this one retries sent the key with another body (RunKeys.sending). */
	idempotencyKeyHeldForOtherBody?: boolean;
	/** What a referent key stands for, e.g. "Quote ID qt_7" (OperationSpec.referent). */
	referent?: string;
}

export interface Transport {
	credentials: ICredentialDataDecryptedObject;
	baseUrl: string;
	timeoutMs: number;
	proxy?: IHttpRequestOptions['proxy'];
	skipSslCertificateValidation?: boolean;
}

/** An answer, or a fault: its code, or ours (E_ANSWER_STALLED, E_ANSWER_TOO_LARGE with `bytes`). */
export type Exchange = { response: ApiResponse } | { fault: string; bytes?: number };

/** A credential's transport, with the caller's Request Options; every path adds its own slash. */
export function transportOf(
	credentials: ICredentialDataDecryptedObject,
	options: Omit<Transport, 'credentials' | 'baseUrl'>,
): Transport {
	const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	return { credentials, baseUrl, ...options };
}

/** An answer whose body is a stream; n8n's legacy helper also hands over its request. */
type SentResponse = IN8nHttpFullResponse & { request?: { destroy(): void } };
/** How one request leaves n8n; the answer comes back whatever its status, never redirected. */
export type Sender = (options: IHttpRequestOptions) => Promise<SentResponse>;

/**
 * n8n's `httpRequest` plus the credential's header. `httpRequestWithAuthentication` swaps the
 * attempt's signal for the execution's (n8n-core authentication.js): a quiet socket stays open.
 */
export function authenticatedSender(
	context: { helpers: RequestHelperFunctions },
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
			timeout: options.timeout,
			// A stream. The helper takes no signal: a late or huge answer ends by destroying the request.
			useStream: true,
		})) as SentResponse;
	};
}

/** Sends one request: no redirect followed, no status thrown, the body read within its bounds. */
export async function sendApiRequest(
	send: Sender,
	transport: Transport,
	request: ItemRequest,
	deadlines = new Deadlines(transport.timeoutMs),
): Promise<Exchange> {
	const attempt = deadlines.start();
	let response: SentResponse | undefined;
	try {
		response = await send({ ...requestOptions(transport, request), abortSignal: attempt.signal });
		const body = await readBoundedBody(response.body, attempt.signal);
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(response.headers ?? {}))
			headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
		return { response: { status: response.statusCode, headers, body } };
	} catch (error) {
		// The legacy helper's socket, whatever state its stream is in.
		response?.request?.destroy();
		if (deadlines.cancelled) return { fault: 'ERR_CANCELED' };
		// Our deadline: before the headers no answer came, after them it stopped coming. (axios
		// reports either as "canceled", a word n8n reads as a cancelled execution.)
		if (attempt.signal.aborted) return { fault: response ? 'E_ANSWER_STALLED' : 'ETIMEDOUT' };
		return { fault: faultCode(error), bytes: (error as { bytes?: number }).bytes };
	} finally {
		attempt.release();
	}
}

function requestOptions(transport: Transport, request: ItemRequest): IHttpRequestOptions {
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
		// axios' own timer: connecting and the headers; the whole answer is sendApiRequest's.
		timeout: transport.timeoutMs,
		proxy: transport.proxy,
		skipSslCertificateValidation: transport.skipSslCertificateValidation,
	};
}

/** What `sendApiRequest` would send, nothing sent: the URL as n8n encodes it, `secrets` masked. */
export async function previewRequest(
	transport: Transport,
	request: ItemRequest,
	secrets: string[],
) {
	const options = requestOptions(transport, request);
	const { headers = {} } = await credential.authenticate(transport.credentials, options);
	for (const name of Object.keys(headers)) headers[name] = redact(`${headers[name]}`, secrets);
	const query = Object.entries(request.qs ?? {})
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
		.join('&');
	return {
		method: request.method,
		url: `${transport.baseUrl}${request.url}${query ? `?${query}` : ''}`,
		headers,
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
