import type { IDataObject } from 'n8n-workflow';

/** A value of a JSON body field. */
export type BodyValue = IDataObject[string];

/** Reads one parameter of the current item, undefined when it is not set. */
export type ParameterReader = (name: string) => BodyValue;

/**
 * The route part of a direct quote or booking body, from the route parameters. It reads exactly
 * the fields the chosen form shows (see route.ts), so a value left over from another form is
 * never sent. Numeric strings (from a sheet or CSV) become numbers; anything else is left for
 * validateRoute to name.
 */
export function buildRoute(read: ParameterReader): IDataObject {
	const serviceType = (read('serviceType') as string | undefined) ?? 'CLICK';
	const body: IDataObject = { serviceType };
	if (serviceType === 'CLICK') {
		if (read('orderMode') === 'MULTI_STOP') {
			body.orderMode = 'MULTI_STOP';
			body.stops = readStops(read('stops'));
			return body;
		}
		return { ...body, ...home(read, 'pickup'), ...home(read, 'dropoff') };
	}
	if (serviceType === 'GO_LIGHT') body.deliveryMode = read('deliveryMode');
	if (serviceType === 'EXPRESS') body.packageWeightKg = toNumber(read('packageWeightKg'));
	const pickupMethod = read('pickupMethod') ?? 'HOME_PICKUP';
	const dropoffMethod = read('dropoffMethod') ?? 'HOME_DELIVERY';
	return compact({
		...body,
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

function home(read: ParameterReader, side: 'pickup' | 'dropoff'): IDataObject {
	return compact({
		[`${side}Address`]: read(`${side}Address`),
		[`${side}Latitude`]: toNumber(read(`${side}Latitude`)),
		[`${side}Longitude`]: toNumber(read(`${side}Longitude`)),
	});
}

function readStops(value: BodyValue): BodyValue {
	const stops = (value as { stop?: unknown } | undefined)?.stop;
	if (!Array.isArray(stops)) return value === undefined ? [] : value;
	return stops.map((stop: IDataObject) =>
		compact({
			type: stop.type,
			address: stop.address,
			latitude: toNumber(stop.latitude),
			longitude: toNumber(stop.longitude),
			phone: normalizePhone(stop.phone),
		}),
	);
}

/** Optional quote/booking fields from the Additional Fields collection; empty ones are left out. */
export function buildRouteOptions(additional: IDataObject): IDataObject {
	const options = compact({ ...additional });
	for (const field of ['pickupPhone', 'dropoffPhone']) {
		if (field in options) options[field] = normalizePhone(options[field]);
	}
	return options;
}

/** Phones are sent as + and digits: the spaces and dashes people type are removed. */
export function normalizePhone(value: BodyValue): BodyValue {
	return typeof value === 'string' ? value.replace(/[\s-]/g, '') || undefined : value;
}

function toNumber(value: BodyValue): BodyValue {
	if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
		return Number(value);
	}
	return value;
}

/** Leaves out fields that are undefined, null or an empty string. */
export function compact(body: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(body).filter(
			([, value]) => value !== undefined && value !== null && value !== '',
		),
	);
}
