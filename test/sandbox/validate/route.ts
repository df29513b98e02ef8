// The nine route forms the spec accepts on POST /booking-quotes and POST /bookings, and nothing else.
import { invalid } from '../errors';
import {
	describe,
	isJsonObject,
	isPresent,
	type JsonObject,
	optionalDateTime,
	optionalEnum,
	optionalNumber,
	optionalPhone,
	optionalString,
	rejectPresent,
	requiredNumber,
	requiredString,
} from './fields';
import { endpointFields, readEndpoint, readMethod, SIDES } from './endpoint';

export const DIRECT_SERVICES = ['CLICK', 'GO_LIGHT', 'EXPRESS'] as const;
export type DirectService = (typeof DIRECT_SERVICES)[number];

export type RouteForm =
	| 'HOME_TO_HOME'
	| 'MULTI_STOP'
	| 'HOME_TO_HUB'
	| 'HUB_TO_HOME'
	| 'HUB_TO_HUB';

export interface Stop {
	type: 'PICKUP' | 'DROPOFF';
	address: string;
	latitude: number;
	longitude: number;
	phone?: string;
}

/** Route fields after defaults; a booking must repeat these exactly. */
export interface DirectRoute {
	serviceType: DirectService;
	deliveryMode?: string;
	packageWeightKg?: number;
	orderMode?: 'MULTI_STOP';
	stops?: Stop[];
	pickupMethod?: string;
	pickupAddress?: string;
	pickupLatitude?: number;
	pickupLongitude?: number;
	pickupHubId?: string;
	dropoffMethod?: string;
	dropoffAddress?: string;
	dropoffLatitude?: number;
	dropoffLongitude?: number;
	dropoffHubId?: string;
}

export const ROUTE_FIELDS: readonly (keyof DirectRoute)[] = [
	'serviceType',
	'deliveryMode',
	'packageWeightKg',
	'orderMode',
	'stops',
	'pickupMethod',
	'pickupAddress',
	'pickupLatitude',
	'pickupLongitude',
	'pickupHubId',
	'dropoffMethod',
	'dropoffAddress',
	'dropoffLatitude',
	'dropoffLongitude',
	'dropoffHubId',
];

/** Optional, non-route fields of a quote or booking. */
export interface RouteOptions {
	vehicleType?: string;
	externalReference?: string;
	requesterName?: string;
	recipientName?: string;
	pickupPhone?: string;
	dropoffPhone?: string;
	packageDescription?: string;
	deliveryNote?: string;
	promoCode?: string;
	scheduledAt?: string;
}

export interface ValidatedRoute {
	form: RouteForm;
	route: DirectRoute;
	options: RouteOptions;
}

const MANUAL_FLOWS: Record<string, string> = {
	GO_BULK:
		'serviceType GO_BULK is not booked directly: the operator quotes it; use POST /partner-api/quote-requests.',
	HAUL: 'serviceType HAUL is not booked directly: the operator quotes it; use POST /partner-api/haulage/quotations.',
};

const ENDPOINT_FIELDS = (['pickup', 'dropoff'] as const).flatMap((side) => {
	const f = SIDES[side];
	return [f.method, f.address, f.latitude, f.longitude, f.hubId];
});

function readServiceType(body: JsonObject): DirectService | undefined {
	const value = optionalString(body.serviceType, 'serviceType');
	if (value === undefined) return undefined;
	if (MANUAL_FLOWS[value]) throw invalid('serviceType', MANUAL_FLOWS[value], 'SERVICE_NOT_DIRECT');
	return optionalEnum(value, 'serviceType', DIRECT_SERVICES);
}

function readStops(value: unknown): Stop[] {
	if (!isPresent(value)) throw invalid('stops', 'stops is required in the multi-stop form.');
	if (!Array.isArray(value)) {
		throw invalid('stops', `stops must be an array of exactly 3 stops; got ${describe(value)}.`);
	}
	if (value.length !== 3) {
		throw invalid('stops', `stops must have exactly 3 items; got ${value.length}.`);
	}
	return value.map((stop: unknown, i) => {
		const at = `stops[${i}]`;
		if (!isJsonObject(stop)) throw invalid(at, `${at} must be an object; got ${describe(stop)}.`);
		const type = optionalEnum(stop.type, `${at}.type`, ['PICKUP', 'DROPOFF'] as const);
		if (!type) throw invalid(`${at}.type`, `${at}.type is required (PICKUP or DROPOFF).`);
		const phone = optionalPhone(stop.phone, `${at}.phone`);
		return {
			type,
			address: requiredString(stop.address, `${at}.address`),
			latitude: requiredNumber(stop.latitude, `${at}.latitude`, -90, 90),
			longitude: requiredNumber(stop.longitude, `${at}.longitude`, -180, 180),
			...(phone === undefined ? {} : { phone }),
		};
	});
}

function readMultiStop(body: JsonObject, serviceType: DirectService | undefined): DirectRoute {
	if (!serviceType) {
		throw invalid('serviceType', 'serviceType is required in the multi-stop form (CLICK).');
	}
	if (serviceType !== 'CLICK') {
		throw invalid(
			'serviceType',
			`serviceType must be CLICK for multi-stop routes; got ${serviceType}.`,
		);
	}
	const orderMode = optionalEnum(body.orderMode, 'orderMode', ['MULTI_STOP'] as const);
	if (!orderMode)
		throw invalid('orderMode', 'orderMode is required (MULTI_STOP) when stops are sent.');
	rejectPresent(body, ENDPOINT_FIELDS, 'in the multi-stop form (the stops carry the route)');
	return { serviceType, orderMode, stops: readStops(body.stops) };
}

function readTwoPoint(body: JsonObject, serviceType: DirectService | undefined) {
	const pickupHub = readMethod(body, 'pickup') === SIDES.pickup.hub;
	const dropoffHub = readMethod(body, 'dropoff') === SIDES.dropoff.hub;
	const form: RouteForm =
		pickupHub && dropoffHub
			? 'HUB_TO_HUB'
			: pickupHub
				? 'HUB_TO_HOME'
				: dropoffHub
					? 'HOME_TO_HUB'
					: 'HOME_TO_HOME';
	if (form !== 'HOME_TO_HOME') {
		if (!serviceType) {
			throw invalid(
				'serviceType',
				'serviceType is required when a hub is used (GO_LIGHT or EXPRESS).',
			);
		}
		if (serviceType === 'CLICK') {
			throw invalid(
				'serviceType',
				'serviceType CLICK is home to home or multi-stop only; routes through a hub are GO_LIGHT or EXPRESS.',
			);
		}
	}
	const route = {
		serviceType: serviceType ?? 'CLICK',
		...endpointFields('pickup', readEndpoint(body, 'pickup', true)),
		...endpointFields('dropoff', readEndpoint(body, 'dropoff', true)),
	} as DirectRoute;
	return { form, route };
}

function readOptions(body: JsonObject): RouteOptions {
	const options: RouteOptions = {
		vehicleType: optionalEnum(body.vehicleType, 'vehicleType', ['BIKE', 'VAN', 'TRUCK']),
		pickupPhone: optionalPhone(body.pickupPhone, 'pickupPhone'),
		dropoffPhone: optionalPhone(body.dropoffPhone, 'dropoffPhone'),
		scheduledAt: optionalDateTime(body.scheduledAt, 'scheduledAt'),
	};
	const texts = [
		'externalReference',
		'requesterName',
		'recipientName',
		'packageDescription',
		'deliveryNote',
		'promoCode',
	] as const;
	for (const field of texts) options[field] = optionalString(body[field], field);
	return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

export function validateDirectRoute(body: JsonObject): ValidatedRoute {
	const serviceType = readServiceType(body);
	const multiStop = isPresent(body.orderMode) || isPresent(body.stops);
	const { form, route } = multiStop
		? { form: 'MULTI_STOP' as const, route: readMultiStop(body, serviceType) }
		: readTwoPoint(body, serviceType);

	const weight = optionalNumber(body.packageWeightKg, 'packageWeightKg', 0.01, 50);
	if (route.serviceType === 'EXPRESS' && weight === undefined) {
		throw invalid('packageWeightKg', 'packageWeightKg is required when serviceType is EXPRESS.');
	}
	if (weight !== undefined) route.packageWeightKg = weight;
	const deliveryMode = optionalEnum(body.deliveryMode, 'deliveryMode', ['STANDARD', 'EXPRESS']);
	if (deliveryMode) route.deliveryMode = deliveryMode;

	return { form, route, options: readOptions(body) };
}

export interface RouteDifference {
	field: string;
	quoted: unknown;
	sent: unknown;
}

/** The first route field (or stop part) where a booking differs from its quote. */
export function firstRouteDifference(
	quoted: DirectRoute,
	sent: DirectRoute,
): RouteDifference | undefined {
	for (const field of ROUTE_FIELDS) {
		if (field !== 'stops') {
			if (quoted[field] !== sent[field]) return { field, quoted: quoted[field], sent: sent[field] };
			continue;
		}
		const a = quoted.stops ?? [];
		const b = sent.stops ?? [];
		if (a.length !== b.length) return { field, quoted: a.length, sent: b.length };
		for (let i = 0; i < a.length; i++) {
			for (const part of ['type', 'address', 'latitude', 'longitude'] as const) {
				if (a[i][part] !== b[i][part]) {
					return { field: `stops[${i}].${part}`, quoted: a[i][part], sent: b[i][part] };
				}
			}
		}
	}
	return undefined;
}
