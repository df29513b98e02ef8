import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { PacerSettings } from '../rateLimit';
import { NUMBER_OPTIONS } from './optionsForm';
import type { RetryBudget } from './retry';
import { CREDENTIAL_TYPE, transportOf, type Transport } from './transport';

/** When n8n's Settings › Request Options › Timeout is not set. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * The longest an agent's tool call waits for the API's limit, its user waiting too: n8n clamps a
 * tool's Retry On Fail to 5 s (n8n-core makeHandleToolInvocation). Then it says when to retry.
 */
export const TOOL_CALL_PATIENCE_MS = 5000;

/** The whole-number Options the pipeline reads, by name. */
type NumberOption = keyof typeof NUMBER_OPTIONS;

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
	const settings = await runSettingsFrom(context, (name, fallback) =>
		context.getNodeParameter(name, 0, fallback),
	);
	if (!isToolCall(context)) return settings;
	return {
		...settings,
		budget: { ...settings.budget, patienceMs: TOOL_CALL_PATIENCE_MS },
		pacer: { ...settings.pacer, patienceMs: TOOL_CALL_PATIENCE_MS },
		toolCall: true,
	};
}

/**
 * Whether n8n runs the node as an AI agent's or MCP client's tool (n8n 2.41.1): through a tool
 * wrapper (makeHandleToolInvocation, whose context says isToolExecution), or, for the AI Agent
 * since v3, as a node of the execution whose output goes back to the agent (`rewireOutputLogTo`).
 * n8n 1.x has only the second: a call through its tool wrapper waits as a workflow run does.
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
	const settings = await runSettingsFrom(context, (name, fallback) =>
		context.getNodeParameter(name, fallback),
	);
	return { ...settings, budget: { ...settings.budget, retryTimeouts: false } };
}

/** The settings from a node's parameters (`read`, a fallback when unset) and its credential. */
async function runSettingsFrom(
	context: Pick<IPollFunctions, 'getNode' | 'getCredentials'>,
	read: (name: string, fallback: unknown) => unknown,
): Promise<RunSettings> {
	const node = context.getNode();
	const option = (name: NumberOption) => {
		const { displayName, default: fallback, typeOptions } = NUMBER_OPTIONS[name];
		const { minValue: min, maxValue: max } = typeOptions;
		const value = read(`options.${name}`, fallback);
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
			const message = `Options › ${displayName} (${name}) must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`;
			throw new NodeOperationError(node, message);
		}
		return number;
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
		transport: transportOf(credentials, {
			timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
			proxy: parseProxy(requestOptions.proxy),
			skipSslCertificateValidation: requestOptions.allowUnauthorizedCerts === true,
		}),
		secrets: secretsOf(credentials),
	};
}

/** How long the editor waits for the API: a user is looking at a dropdown or a dialog. */
export const EDITOR_TIMEOUT_MS = 15_000;

/** The editor's requests: one at a time within EDITOR_TIMEOUT_MS; the Test button's not retried. */
export function editorSettings(
	credentials: ICredentialDataDecryptedObject,
	use: 'picker' | 'credentialTest',
): RunSettings {
	const fallback = (name: NumberOption) =>
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
