import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	describeFailedAnswer,
	describeFault,
	describeUnexpectedBody,
	readBody,
	type ApiErrorText,
} from './errors';
import { DEFAULT_TIMEOUT_MS, secretsOf } from './settings';
import {
	authenticatedSender,
	CREDENTIAL_TYPE,
	sendApiRequest,
	transportOf,
	type ApiRequest,
} from './transport';

/** The list of active hubs: the hub pickers' source and the credential test's probe. */
export const HUBS_REQUEST: ApiRequest = { method: 'GET', url: '/partner-api/hubs' };

/**
 * Active hubs for the hub pickers (GET /partner-api/hubs). The spec shows no hub field but the
 * id, so a hub is labelled with whichever of name/city it carries. A failed load throws, so the
 * dropdown shows the API's error instead of an empty list.
 */
export async function searchHubs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const transport = transportOf(credentials, { timeoutMs: DEFAULT_TIMEOUT_MS });
	const exchange = await sendApiRequest(
		authenticatedSender(this, transport),
		transport,
		HUBS_REQUEST,
	);
	const secrets = secretsOf(credentials);
	const fail = (text: ApiErrorText, status?: number): never => {
		throw new NodeApiError(this.getNode(), { status: status ?? 'no answer' } as JsonObject, {
			message: `Could not load hubs: ${text.message}`,
			description: text.description,
			httpCode: status === undefined ? undefined : String(status),
		});
	};
	if ('fault' in exchange) {
		return fail(
			describeFault(exchange.fault, 0, { timeoutMs: DEFAULT_TIMEOUT_MS, mutating: false }),
		);
	}
	const { status, body } = exchange.response;
	if (status >= 300) return fail(describeFailedAnswer(exchange.response, {}, secrets), status);
	const hubs = readBody(body);
	if (hubs === undefined) {
		return fail(describeUnexpectedBody(status, body, 'the list of hubs', secrets), status);
	}
	const needle = filter?.trim().toLowerCase() ?? '';
	const results: INodeListSearchItems[] = (Array.isArray(hubs) ? (hubs as IDataObject[]) : [])
		.filter((hub) => hub && (typeof hub.id === 'string' || typeof hub.id === 'number'))
		.map((hub) => ({ name: hubLabel(hub), value: String(hub.id) }))
		.filter((item) => !needle || `${item.name} ${item.value}`.toLowerCase().includes(needle));
	return { results };
}

function hubLabel(hub: IDataObject): string {
	const parts = [hub.name, hub.city].filter((part) => typeof part === 'string' && part !== '');
	return parts.length ? `${parts.join(', ')} (${String(hub.id)})` : String(hub.id);
}
