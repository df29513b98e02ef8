import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';
import { compact } from '../pipeline/problem';
import { isObject } from '../shared/valueAt';
import { ENDS, type Side } from './ends';
import { routeFields, STOP_SLOTS } from './form';
import { routeOptionFields } from './optionalFields';
import { isNumberField, toNumber } from './numbers';

/** The route fields a booking must repeat from its quote (spec: Booking), in form order. */
export const ROUTE_FIELDS = routeFields.map((field) => field.name);
/** Optional quote and booking fields (spec: direct booking quote request), by API name. */
export const ROUTE_OPTION_FIELDS = routeOptionFields.map((field) => field.name);

type Read = BodyInput['read'];

/**
 * The route part of a direct quote or booking body: exactly the fields the chosen form shows, so a
 * value left from another form is never sent; an empty one is left out (the route check names it).
 */
export function buildRoute(read: Read): IDataObject {
	const serviceType = (read('serviceType') as string | undefined) ?? 'CLICK';
	if (serviceType === 'CLICK') {
		return read('orderMode') === 'MULTI_STOP'
			? { serviceType, orderMode: 'MULTI_STOP', stops: readStops(read('stops')) }
			: { serviceType, ...home(read, 'pickup'), ...home(read, 'dropoff') };
	}
	return compact({
		serviceType,
		deliveryMode: serviceType === 'GO_LIGHT' ? read('deliveryMode') : undefined,
		packageWeightKg: serviceType === 'EXPRESS' ? toNumber(read('packageWeightKg')) : undefined,
		...end(read, 'pickup'),
		...end(read, 'dropoff'),
	});
}

/** A GO_LIGHT or EXPRESS end: its method, then its hub or its address. */
function end(read: Read, side: Side): IDataObject {
	const method = read(`${side}Method`) ?? ENDS[side].home;
	const place =
		method === ENDS[side].hub ? { [`${side}HubId`]: read(`${side}HubId`) } : home(read, side);
	return { [`${side}Method`]: method, ...place };
}

function home(read: Read, side: Side): IDataObject {
	return compact({
		[`${side}Address`]: read(`${side}Address`),
		[`${side}Latitude`]: toNumber(read(`${side}Latitude`)),
		[`${side}Longitude`]: toNumber(read(`${side}Longitude`)),
	});
}

/** The stops in route order, from Stop 1–3, a saved workflow's `stops.stop[]`, or an expression. */
function readStops(value: IDataObject[string]): IDataObject[string] {
	if (value === undefined) return [];
	if (!isObject(value) && !Array.isArray(value)) return value;
	const slots = value as IDataObject;
	const stops = Array.isArray(value)
		? value
		: Array.isArray(slots.stop)
			? slots.stop
			: STOP_SLOTS.map((slot) => slots[slot]).filter(isObject);
	return (stops as IDataObject[]).map((stop) =>
		isObject(stop)
			? compact({
					type: stop.type,
					address: stop.address,
					latitude: toNumber(stop.latitude),
					longitude: toNumber(stop.longitude),
					phone: normalizePhone(stop.phone),
				})
			: stop,
	);
}

/** The route and optional fields an item (a sheet row) carries under the API's names; no others. */
export function routeFromItem(item: IDataObject): IDataObject {
	const picked = pick(item, [...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS]);
	if (Array.isArray(picked.stops)) picked.stops = readStops(picked.stops);
	return buildRouteOptions(picked);
}

/** The named fields an item carries, numeric strings read as numbers, empty values left out. */
export function pick(item: IDataObject, fields: string[]): IDataObject {
	const given = fields.filter((field) => field in item);
	const value = (field: string) => (isNumberField(field) ? toNumber(item[field]) : item[field]);
	return compact(Object.fromEntries(given.map((field) => [field, value(field)])));
}

/** Optional quote/booking fields, phones as + and digits (the spaces and dashes people type go). */
export function buildRouteOptions(fields: IDataObject): IDataObject {
	const { pickupPhone, dropoffPhone } = fields;
	return compact({
		...fields,
		pickupPhone: normalizePhone(pickupPhone),
		dropoffPhone: normalizePhone(dropoffPhone),
	});
}

function normalizePhone(value: IDataObject[string]): IDataObject[string] {
	return typeof value === 'string' ? value.replace(/[\s-]/g, '') || undefined : value;
}
