import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { pickerSession } from '../pipeline/request';
import { hubGetMany } from '../resources/hub/getAll';

/**
 * Active hubs for the pickers, by Hub › Get Many. The spec shows no hub field but the id: a hub
 * is labelled by the name/city it has. A failed load throws: the dropdown shows why, not nothing.
 */
export async function searchHubs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const request = { method: 'GET' as const, url: hubGetMany.path, itemIndex: 0 };
	const api = await pickerSession(this);
	const { body: hubs } = await api.read(request, 'the list of hubs', {
		prefix: 'Could not load hubs:',
	});
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
