import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { clip } from '../../shared/message';
import { runPacer } from '../rateLimit';
import { Deadlines } from './answerBounds';
import { answerEvidence } from './evidence';
import { NUMBER_OPTIONS } from './optionsForm';
import { apiError, expectJson, sendRequest, type RunSettings, type Sending } from './send';
import {
	authenticatedSender,
	CREDENTIAL_TYPE,
	credentialTestSender,
	previewRequest,
	transportOf,
	type ApiResponse,
	type ItemRequest,
	type Sender,
} from './transport';

export { failsEveryRequest } from './send';
export type { ItemRequest } from './transport';
export { optionsDescription } from './optionsForm';

/** The one way to the API for every caller below: paced per API key, retried as Options allow. */
export type ApiSession = ReturnType<typeof session>;

/** A node run's session, or a tool call's: the Options of item 0, cancelled with the execution. */
export async function runSession(
	context: IExecuteFunctions,
	options: Pick<Sending, 'capability' | 'mutating'>,
): Promise<ApiSession> {
	const settings = await nodeSettings(context, (name, fallback) =>
		context.getNodeParameter(name, 0, fallback),
	);
	// An agent's (or MCP client's) tool call waits at most 5 s, as n8n clamps a tool's Retry On Fail.
	// n8n runs a tool through a wrapper (isToolExecution; not in n8n 1.x) or as AI Agent v3's node.
	const { isToolExecution } = context as { isToolExecution?: () => boolean };
	if (
		isToolExecution?.call(context) === true ||
		context.getNode().rewireOutputLogTo === NodeConnectionTypes.AiTool
	) {
		settings.budget.patienceMs = settings.pacer.patienceMs = 5000;
	}
	const sender = authenticatedSender(context, settings.transport);
	return session(context.getNode(), settings, sender, options, context.getExecutionCancelSignal());
}

/** A poll's session: the polling trigger's Options; a timed-out read waits for the next poll. */
export async function pollSession(context: IPollFunctions): Promise<ApiSession> {
	const settings = await nodeSettings(context, context.getNodeParameter.bind(context));
	settings.budget.retryTimeouts = false;
	return session(context.getNode(), settings, authenticatedSender(context, settings.transport));
}

/** The hub picker's session: the Options' defaults, one request at a time. */
export async function pickerSession(ctx: ILoadOptionsFunctions): Promise<ApiSession> {
	const settings = editorSettings(await ctx.getCredentials(CREDENTIAL_TYPE), true);
	return session(ctx.getNode(), settings, authenticatedSender(ctx, settings.transport));
}

/** The credential's Test button: no retries, failures in the dialog's own words. */
export function credentialTestSession(
	context: ICredentialTestFunctions,
	{ data = {} }: ICredentialsDecrypted,
): ApiSession {
	const node = { name: 'Partner Logistics credential test' } as INode;
	const sender = credentialTestSender(context, data);
	return session(node, editorSettings(data, false), sender, { credentialTest: true });
}

function session(
	node: INode,
	settings: RunSettings,
	send: Sender,
	options: Pick<Sending, 'mutating' | 'capability' | 'credentialTest'> = {},
	signal?: AbortSignal,
) {
	let sending: Sending | undefined;
	// The key's pacer is joined on the first request: a session that sends nothing leaves nothing.
	const joined = (): Sending => {
		if (sending) return sending;
		const { baseUrl, credentials, timeoutMs } = settings.transport;
		const pacer = runPacer(baseUrl, String(credentials.apiKey ?? ''), settings.pacer, signal);
		const deadlines = new Deadlines(timeoutMs, signal);
		return (sending = { node, settings, send, pacer, deadlines, ...options });
	};
	return {
		settings,
		/** The request's 2xx answer and JSON body (`expected` names it); else the error that explains. */
		read: async (
			request: ItemRequest,
			expected: string,
			wording?: Pick<Sending, 'prefix' | 'capability'>,
		) => {
			const run = { ...joined(), ...wording };
			const response = await sendRequest(run, request);
			return { response, body: expectJson(run, response, expected) };
		},
		/** The error for an unusable 2xx answer: `message`, then `why` and the answer itself. */
		unusable: (response: ApiResponse, message: string, why: string) =>
			apiError(joined(), response, {
				message,
				description: `${why} ${answerEvidence(response.status, response.body, settings.secrets)}`,
			}),
		/** The request as it would leave n8n, nothing sent (a dry run), its secrets masked. */
		preview: async (request: ItemRequest) =>
			await previewRequest(settings.transport, request, settings.secrets),
	};
}

/** A node's settings, read once: Options (`read`; a fallback when unset), Request Options, credential. */
async function nodeSettings(
	context: Pick<IPollFunctions, 'getNode' | 'getCredentials'>,
	read: (name: string, fallback: unknown) => unknown,
): Promise<RunSettings> {
	const option = (name: keyof typeof NUMBER_OPTIONS) => {
		const { displayName, default: fallback, typeOptions } = NUMBER_OPTIONS[name];
		const { minValue: min, maxValue: max } = typeOptions;
		const value = read(`options.${name}`, fallback);
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max)
			return number;
		const rule = `Options › ${displayName} (${name}) must be a whole number from ${min} to ${max}, got `;
		throw new NodeOperationError(context.getNode(), rule + clip(`${JSON.stringify(value)}`, rule));
	};
	const requestOptions = (read('requestOptions', {}) ?? {}) as IDataObject;
	const batch = ((requestOptions.batching as IDataObject | undefined)?.batch ?? {}) as IDataObject;
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const timeout = Number(requestOptions.timeout);
	return {
		budget: { maxRetries: option('maxRetries'), faultRetries: option('faultRetries') },
		pacer: {
			concurrency: option('concurrency'),
			maxPerSecond: option('maxRequestsPerSecond'),
			batch:
				Number(batch.batchSize) >= 0
					? { size: Math.max(1, Number(batch.batchSize)), intervalMs: Number(batch.batchInterval) }
					: undefined,
		},
		// n8n's Settings › Request Options › Timeout, 30 s when it is not set.
		transport: transportOf(credentials, {
			timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 30_000,
			proxy: parseProxy(requestOptions.proxy),
			skipSslCertificateValidation: requestOptions.allowUnauthorizedCerts === true,
		}),
		secrets: secretsOf(credentials),
	};
}

/** The editor's requests (hub picker, Test button): one at a time, 15 s each; the Test's not retried. */
function editorSettings(
	credentials: ICredentialDataDecryptedObject,
	retried: boolean,
): RunSettings {
	const fallback = (name: keyof typeof NUMBER_OPTIONS) =>
		retried ? NUMBER_OPTIONS[name].default : 0;
	return {
		budget: {
			maxRetries: fallback('maxRetries'),
			faultRetries: fallback('faultRetries'),
			retryTimeouts: false,
		},
		pacer: { concurrency: 1, maxPerSecond: fallback('maxRequestsPerSecond') },
		transport: transportOf(credentials, { timeoutMs: 15_000 }),
		secrets: secretsOf(credentials),
	};
}

const secretsOf = (credentials: ICredentialDataDecryptedObject) =>
	[
		credentials.apiKey,
		credentials.webhookSigningSecret,
		credentials.previousWebhookSigningSecret,
	].filter((secret): secret is string => typeof secret === 'string');

/** n8n's Proxy option, `http://user:pass@host:port`, as the request helper takes it. */
function parseProxy(value: unknown): IHttpRequestOptions['proxy'] {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const url = new URL(value.trim());
	return {
		protocol: url.protocol.replace(/:$/, ''),
		host: url.hostname,
		port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
		auth: url.username
			? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
			: undefined,
	};
}
