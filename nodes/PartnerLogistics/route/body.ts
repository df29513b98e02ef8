import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';
import { compact, required, type Problem } from '../pipeline/problem';
import { isObject } from '../shared/valueAt';
import { ENDS, type Side } from './ends';
import { ROUTE_FIELDS, ROUTE_OPTION_FIELDS, STOP_SLOTS } from './form';
import { isNumberField, toNumber } from './numbers';
import { routeMismatch, validateRoute } from './rules';
import { FROM_QUOTE, INPUT_FIELDS } from './routeSource';

type Read = BodyInput['read'];

/** A typed route: only the fields its form shows, so no value left from another form is sent. */
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
	return compact({
		...fields,
		pickupPhone: normalizePhone(fields.pickupPhone),
		dropoffPhone: normalizePhone(fields.dropoffPhone),
	});
}

function normalizePhone(value: IDataObject[string]): IDataObject[string] {
	return typeof value === 'string' ? value.replace(/[\s-]/g, '') || undefined : value;
}

const QUOTED_ROUTE = 'quotedRoute';

const optionsOf = (read: Read) =>
	buildRouteOptions((read('additionalFields') ?? {}) as IDataObject);

/** Quote › Create's body, a route given anew for a booking: the form's or the item's, and options. */
export function quoteBody({ read, item }: BodyInput): IDataObject {
	const route = read('routeSource') === INPUT_FIELDS ? routeFromItem(item) : buildRoute(read);
	return { ...route, ...optionsOf(read) };
}

/** Quote › Create's output: the quote untouched, plus its route for Booking › Create to repeat. */
export function withQuotedRoute(record: IDataObject, sent: IDataObject): IDataObject {
	return { ...record, [QUOTED_ROUTE]: record[QUOTED_ROUTE] ?? sent };
}

const quotedRouteOf = (item: IDataObject) =>
	isObject(item[QUOTED_ROUTE]) ? (item[QUOTED_ROUTE] as IDataObject) : undefined;

const fromQuote = ({ read }: BodyInput) => (read('routeSource') ?? FROM_QUOTE) === FROM_QUOTE;

/** Booking › Create: the quote id (as text) and the route, from the incoming quote by default. */
export function bookingBody(input: BodyInput): IDataObject {
	const quoteId = String(input.read('quoteId') ?? '').trim();
	const route = fromQuote(input)
		? { ...quotedRouteOf(input.item), ...optionsOf(input.read) }
		: quoteBody(input);
	return { ...route, quoteId };
}

/** A booking books its quote's route (spec): the incoming quote's, or one equal to it. */
export function bookingCheck(body: IDataObject, input: BodyInput): Problem | undefined {
	const { quoteId } = body;
	if (!quoteId) return required('quoteId', quoteId);
	const { item } = input;
	const quoted = quotedRouteOf(item);
	const sameQuote = item.quoteId !== undefined && String(item.quoteId).trim() === quoteId;
	if (fromQuote(input)) {
		if (!quoted) {
			return {
				field: QUOTED_ROUTE,
				label: 'Quoted Route',
				value: item[QUOTED_ROUTE],
				rule: 'is missing from the input item',
				hint: 'Put this node right after Quote › Create (or keep that output through the nodes between), or set Route to "Define Below".',
			};
		}
		if (item.quoteId !== undefined && !sameQuote) {
			return {
				field: 'quoteId',
				value: quoteId,
				rule: 'is not the quote of the input item',
				hint: `The input item is quote ${String(item.quoteId)}, whose route would be sent.`,
			};
		}
	} else if (quoted && sameQuote) {
		const mismatch = routeMismatch(body, quoted);
		if (mismatch) return mismatch;
	}
	return validateRoute(body);
}
