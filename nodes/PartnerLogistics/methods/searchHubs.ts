import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { pickerSession } from '../pipeline/request';
import { hubGetMany } from '../resources/hub/getAll';

export const LIST_HUBS = { method: 'GET' as const, url: hubGetMany.path, itemIndex: 0 };

/** Active hubs by any name/city (the spec shows only the id); a failed load throws to say why. */
export async function searchHubs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const api = await pickerSession(this);
	const { body: hubs } = await api.read(LIST_HUBS, 'the list of hubs', {
		prefix: 'Could not load hubs:',
	});
	const needle = filter?.trim().toLowerCase() ?? '';
	const results: INodeListSearchItems[] = (Array.isArray(hubs) ? (hubs as IDataObject[]) : [])
		.filter((hub) => hub && (typeof hub.id === 'string' || typeof hub.id === 'number'))
		.map((hub) => {
			const label = [hub.name, hub.city].filter((part) => typeof part === 'string' && part !== '');
			const value = String(hub.id);
			return { name: label.length ? `${label.join(', ')} (${value})` : value, value };
		})
		.filter((item) => !needle || `${item.name} ${item.value}`.toLowerCase().includes(needle));
	return { results };
}
