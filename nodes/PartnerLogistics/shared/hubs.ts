import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeApiError } from './errors';
import { baseUrlOf } from './transport';

/**
 * Active hubs for the hub pickers (GET /partner-api/hubs). The spec shows no hub field but the
 * id, so a hub is labelled with whichever of name/city it carries. A failed load throws, so the
 * dropdown shows the API's error instead of an empty list.
 */
export async function searchHubs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const credentials = await this.getCredentials('partnerLogisticsApi');
	const response = await this.helpers.httpRequestWithAuthentication.call(
		this,
		'partnerLogisticsApi',
		{
			method: 'GET',
			baseURL: baseUrlOf(credentials),
			url: '/partner-api/hubs',
			json: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
		},
	);
	if (response.statusCode >= 400) {
		const raw =
			typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
		const apiKey = String(credentials.apiKey ?? '');
		const { message, description } = describeApiError(response.statusCode, raw, {}, [apiKey]);
		throw new NodeApiError(this.getNode(), { status: response.statusCode } as JsonObject, {
			message: `Could not load hubs: ${message}`,
			description,
			httpCode: String(response.statusCode),
		});
	}
	const hubs = Array.isArray(response.body) ? (response.body as IDataObject[]) : [];
	const needle = filter?.trim().toLowerCase() ?? '';
	const results: INodeListSearchItems[] = hubs
		.filter((hub) => hub && (typeof hub.id === 'string' || typeof hub.id === 'number'))
		.map((hub) => ({ name: hubLabel(hub), value: String(hub.id) }))
		.filter((item) => !needle || `${item.name} ${item.value}`.toLowerCase().includes(needle));
	return { results };
}

function hubLabel(hub: IDataObject): string {
	const parts = [hub.name, hub.city].filter((part) => typeof part === 'string' && part !== '');
	return parts.length ? `${parts.join(', ')} (${String(hub.id)})` : String(hub.id);
}
