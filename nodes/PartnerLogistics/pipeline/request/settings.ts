import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clip } from '../../shared/message';
import type { PacerSettings } from '../rateLimit';
import { NUMBER_OPTIONS } from './optionsForm';
import type { RetryBudget } from './retry';
import { CREDENTIAL_TYPE, transportOf, type Transport } from './transport';

export interface RunSettings {
	budget: RetryBudget;
	pacer: PacerSettings;
	transport: Transport;
	secrets: string[];
}

/** A node's settings, read once: its Options (`read`, a fallback when unset), Request Options, credential. */
export async function nodeSettings(
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

/** The editor's requests (hub picker, Test button): one at a time within 15 s; the Test's not retried. */
export function editorSettings(
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

/** Values never to show in an error: the API key and the signing secrets. */
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
