import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { clip } from '../../shared/message';
import type { PacerSettings } from '../rateLimit';
import { NUMBER_OPTIONS } from './optionsForm';
import type { RetryBudget } from './retry';
import { CREDENTIAL_TYPE, transportOf, type Transport } from './transport';

/** An agent's tool call waits at most this for the API, as n8n clamps a tool's Retry On Fail. */
const TOOL_CALL_PATIENCE_MS = 5000;
/** How long the editor waits for the API: a user is looking at a dropdown or a dialog. */
const EDITOR_TIMEOUT_MS = 15_000;

export interface RunSettings {
	budget: RetryBudget;
	pacer: PacerSettings;
	transport: Transport;
	/** Values never to show in an error: the API key and the signing secrets. */
	secrets: string[];
	/** An AI agent's (or MCP client's) tool call: it waits at most TOOL_CALL_PATIENCE_MS. */
	toolCall?: boolean;
}

/** A run's settings, read once: item 0's Options (as n8n batches), Request Options, credential. */
export async function readRunSettings(context: IExecuteFunctions): Promise<RunSettings> {
	const settings = await settingsOf(context, (name, fallback) =>
		context.getNodeParameter(name, 0, fallback),
	);
	if (!isToolCall(context)) return settings;
	const { budget, pacer } = settings;
	const patienceMs = TOOL_CALL_PATIENCE_MS;
	return {
		...settings,
		budget: { ...budget, patienceMs },
		pacer: { ...pacer, patienceMs },
		toolCall: true,
	};
}

/**
 * Whether n8n runs the node as an agent's or MCP client's tool: through a tool wrapper (its context
 * says isToolExecution; not in n8n 1.x), or as the AI Agent v3's node (`rewireOutputLogTo`).
 */
function isToolCall(context: IExecuteFunctions): boolean {
	const { isToolExecution } = context as { isToolExecution?: () => boolean };
	return (
		isToolExecution?.call(context) === true ||
		context.getNode().rewireOutputLogTo === NodeConnectionTypes.AiTool
	);
}

/** A poll's settings. A timed-out read is not retried: the next poll is its retry. */
export async function readPollSettings(context: IPollFunctions): Promise<RunSettings> {
	const settings = await settingsOf(context, (name, fallback) =>
		context.getNodeParameter(name, fallback),
	);
	return { ...settings, budget: { ...settings.budget, retryTimeouts: false } };
}

/** The settings from a node's parameters (`read`, a fallback when unset) and its credential. */
async function settingsOf(
	context: Pick<IPollFunctions, 'getNode' | 'getCredentials'>,
	read: (name: string, fallback: unknown) => unknown,
): Promise<RunSettings> {
	const option = (name: keyof typeof NUMBER_OPTIONS) => {
		const { displayName, default: fallback, typeOptions } = NUMBER_OPTIONS[name];
		const { minValue: min, maxValue: max } = typeOptions;
		const value = read(`options.${name}`, fallback);
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max) {
			return number;
		}
		const rule = `Options › ${displayName} (${name}) must be a whole number from ${min} to ${max}, got `;
		throw new NodeOperationError(
			context.getNode(),
			rule + clip(String(JSON.stringify(value)), rule),
		);
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

/** The editor's requests: one at a time within EDITOR_TIMEOUT_MS; the Test button's not retried. */
export function editorSettings(
	credentials: ICredentialDataDecryptedObject,
	use: 'picker' | 'credentialTest',
): RunSettings {
	const fallback = (name: keyof typeof NUMBER_OPTIONS) =>
		use === 'credentialTest' ? 0 : NUMBER_OPTIONS[name].default;
	return {
		budget: {
			maxRetries: fallback('maxRetries'),
			faultRetries: fallback('faultRetries'),
			retryTimeouts: false,
		},
		pacer: { concurrency: 1, maxPerSecond: fallback('maxRequestsPerSecond') },
		transport: transportOf(credentials, { timeoutMs: EDITOR_TIMEOUT_MS }),
		secrets: secretsOf(credentials),
	};
}

function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	const { apiKey, webhookSigningSecret, previousWebhookSigningSecret } = credentials;
	const secrets = [apiKey, webhookSigningSecret, previousWebhookSigningSecret];
	return secrets.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
}

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
