import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';
import { compact } from '../pipeline/problem';
import { routeFields, STOP_SLOTS } from './form';
import { routeOptionFields } from './optionalFields';
import { isNumberField, toNumber } from './numbers';

/** The route fields a booking must repeat from its quote (spec: Booking), in form order. */
export const ROUTE_FIELDS = routeFields.map((field) => field.name);
/** Optional quote and booking fields (spec: direct booking quote request), by API name. */
export const ROUTE_OPTION_FIELDS = routeOptionFields.map((field) => field.name);

/**
 * The route part of a direct quote or booking body: exactly the fields the chosen form shows, so a
 * value left from another form is never sent; an empty one is left out (the route check names it).
 */
export function buildRoute(read: BodyInput['read']): IDataObject {
	const serviceType = (read('serviceType') as string | undefined) ?? 'CLICK';
	const body: IDataObject = { serviceType };
	if (serviceType === 'CLICK') {
		if (read('orderMode') === 'MULTI_STOP') {
			return { ...body, orderMode: 'MULTI_STOP', stops: readStops(read('stops')) };
		}
		return { ...body, ...home(read, 'pickup'), ...home(read, 'dropoff') };
	}
	const pickupMethod = read('pickupMethod') ?? 'HOME_PICKUP';
	const dropoffMethod = read('dropoffMethod') ?? 'HOME_DELIVERY';
	return compact({
		...body,
		deliveryMode: serviceType === 'GO_LIGHT' ? read('deliveryMode') : undefined,
		packageWeightKg: serviceType === 'EXPRESS' ? toNumber(read('packageWeightKg')) : undefined,
		pickupMethod,
		...(pickupMethod === 'HUB_DROPOFF'
			? { pickupHubId: read('pickupHubId') }
			: home(read, 'pickup')),
		dropoffMethod,
		...(dropoffMethod === 'HUB_PICKUP'
			? { dropoffHubId: read('dropoffHubId') }
			: home(read, 'dropoff')),
	});
}

function home(read: BodyInput['read'], side: 'pickup' | 'dropoff'): IDataObject {
	return compact({
		[`${side}Address`]: read(`${side}Address`),
		[`${side}Latitude`]: toNumber(read(`${side}Latitude`)),
		[`${side}Longitude`]: toNumber(read(`${side}Longitude`)),
	});
}

/** The stops in route order, from Stop 1–3, a saved workflow's `stops.stop[]`, or an expression. */
function readStops(value: IDataObject[string]): IDataObject[string] {
	if (Array.isArray(value)) return value.map((stop) => toStop(stop as IDataObject));
	if (!value || typeof value !== 'object') return value === undefined ? [] : value;
	const record = value as IDataObject;
	const stops = Array.isArray(record.stop)
		? (record.stop as IDataObject[])
		: STOP_SLOTS.map((slot) => record[slot] as IDataObject | undefined).filter(
				(stop): stop is IDataObject => !!stop && typeof stop === 'object',
			);
	return stops.map(toStop);
}

function toStop(stop: IDataObject): IDataObject {
	if (!stop || typeof stop !== 'object') return stop;
	return compact({
		type: stop.type,
		address: stop.address,
		latitude: toNumber(stop.latitude),
		longitude: toNumber(stop.longitude),
		phone: normalizePhone(stop.phone),
	});
}

/** The route and optional fields an item (a sheet row) carries under the API's names; no others. */
export function routeFromItem(item: IDataObject): IDataObject {
	const picked = pick(item, [...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS]);
	if (Array.isArray(picked.stops)) picked.stops = readStops(picked.stops);
	return normalizeOptions(picked);
}

/** The named fields an item carries, numeric strings read as numbers, empty values left out. */
export function pick(item: IDataObject, fields: string[]): IDataObject {
	const given = fields.filter((field) => field in item);
	const value = (field: string) => (isNumberField(field) ? toNumber(item[field]) : item[field]);
	return compact(Object.fromEntries(given.map((field) => [field, value(field)])));
}

/** Optional quote/booking fields from the Additional Fields collection; empty ones are left out. */
export function buildRouteOptions(additional: IDataObject): IDataObject {
	return normalizeOptions(compact({ ...additional }));
}

function normalizeOptions(body: IDataObject): IDataObject {
	for (const field of ['pickupPhone', 'dropoffPhone']) {
		if (field in body) body[field] = normalizePhone(body[field]);
	}
	return compact(body);
}

/** Phones are sent as + and digits: the spaces and dashes people type are removed. */
function normalizePhone(value: IDataObject[string]): IDataObject[string] {
	return typeof value === 'string' ? value.replace(/[\s-]/g, '') || undefined : value;
}
