import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { pickerSession } from '../pipeline/request';
import { hubGetMany } from '../resources/hub/getAll';

/**
 * Active hubs for the hub pickers, by Hub › Get Many through the pipeline. The spec shows no hub
 * field but the id: a hub is labelled with whichever of name/city it carries. A failed load
 * throws, so the dropdown shows the API's error instead of an empty list.
 */
export async function searchHubs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const api = await pickerSession(this, 'Could not load hubs:');
	const request = { method: 'GET' as const, url: hubGetMany.path, itemIndex: 0 };
	const { body: hubs } = await api.read(request, 'the list of hubs');
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
