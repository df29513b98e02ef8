import type { IDataObject } from 'n8n-workflow';

import { firstProblem, isGiven, required, type Problem } from '../pipeline/problem';
import { ROUTE_FIELDS } from './body';
import { checkNumber } from './numbers';

const DIRECT_SERVICES = ['CLICK', 'GO_LIGHT', 'EXPRESS'];
const MANUAL_SERVICES: Record<string, string> = {
	GO_BULK: 'Use the Quote Request resource (manual GO_BULK quotation) instead.',
	HAUL: 'Use the Haulage Quotation resource (manual HAUL quotation) instead.',
};

const PHONE_FIELDS = ['pickupPhone', 'dropoffPhone'];

/** A direct quote or booking body's first problem against the spec's nine forms and bounds. */
export function validateRoute(body: IDataObject): Problem | undefined {
	const service = body.serviceType ?? 'CLICK';
	if (typeof service !== 'string' || !DIRECT_SERVICES.includes(service)) {
		const manual = typeof service === 'string' ? MANUAL_SERVICES[service] : undefined;
		return {
			field: 'serviceType',
			value: service,
			rule: manual
				? `${String(service)} is not booked with a direct quote`
				: 'must be CLICK, GO_LIGHT or EXPRESS',
			hint: manual,
		};
	}
	return (
		(body.orderMode !== undefined || body.stops !== undefined
			? validateMultiStop(body, service)
			: validateEnds(body, service)) ??
		validateWeight(body, service) ??
		oneOf(body, 'deliveryMode', ['STANDARD', 'EXPRESS']) ??
		oneOf(body, 'vehicleType', ['BIKE', 'VAN', 'TRUCK']) ??
		firstProblem(PHONE_FIELDS.map((field) => phone(body[field], field))) ??
		isoDateTime(body.scheduledAt, 'scheduledAt')
	);
}

function validateMultiStop(body: IDataObject, service: string): Problem | undefined {
	if (service !== 'CLICK') {
		return { field: 'serviceType', value: service, rule: 'must be CLICK for a multi-stop order' };
	}
	if (body.orderMode !== 'MULTI_STOP') {
		return { field: 'orderMode', value: body.orderMode, rule: 'must be MULTI_STOP with stops' };
	}
	const stops = body.stops;
	if (!Array.isArray(stops) || stops.length !== 3) {
		return {
			field: 'stops',
			value: Array.isArray(stops) ? `${stops.length} stops` : stops,
			rule: 'must hold exactly 3 stops',
		};
	}
	return firstProblem(
		stops.map((stop, index) => {
			const at = (name: string) => `stops[${index}].${name}`;
			const record = (stop ?? {}) as IDataObject;
			return (
				oneOf(record, 'type', ['PICKUP', 'DROPOFF'], at('type'), true) ??
				text(record.address, at('address')) ??
				coordinate(record.latitude, 'latitude', at('latitude')) ??
				coordinate(record.longitude, 'longitude', at('longitude')) ??
				phone(record.phone, at('phone'))
			);
		}),
	);
}

function validateEnds(body: IDataObject, service: string): Problem | undefined {
	const pickup = body.pickupMethod ?? 'HOME_PICKUP';
	const dropoff = body.dropoffMethod ?? 'HOME_DELIVERY';
	if (pickup !== 'HOME_PICKUP' && pickup !== 'HUB_DROPOFF') {
		return { field: 'pickupMethod', value: pickup, rule: 'must be HOME_PICKUP or HUB_DROPOFF' };
	}
	if (dropoff !== 'HOME_DELIVERY' && dropoff !== 'HUB_PICKUP') {
		return { field: 'dropoffMethod', value: dropoff, rule: 'must be HOME_DELIVERY or HUB_PICKUP' };
	}
	if (service === 'CLICK' && (pickup !== 'HOME_PICKUP' || dropoff !== 'HOME_DELIVERY')) {
		const field = pickup !== 'HOME_PICKUP' ? 'pickupMethod' : 'dropoffMethod';
		return {
			field,
			value: body[field],
			rule: 'must be a home method for CLICK',
			hint: 'CLICK goes home to home or multi-stop; choose GO_LIGHT or EXPRESS for hub routes.',
		};
	}
	return (
		end(body, 'pickup', pickup === 'HUB_DROPOFF') ?? end(body, 'dropoff', dropoff === 'HUB_PICKUP')
	);
}

function end(body: IDataObject, side: 'pickup' | 'dropoff', viaHub: boolean): Problem | undefined {
	if (viaHub) return text(body[`${side}HubId`], `${side}HubId`);
	return (
		text(body[`${side}Address`], `${side}Address`) ??
		coordinate(body[`${side}Latitude`], `${side}Latitude`) ??
		coordinate(body[`${side}Longitude`], `${side}Longitude`)
	);
}

function validateWeight(body: IDataObject, service: string): Problem | undefined {
	const weight = body.packageWeightKg;
	if (weight === undefined) {
		return service === 'EXPRESS'
			? { field: 'packageWeightKg', value: weight, rule: 'is required for EXPRESS' }
			: undefined;
	}
	return checkNumber(weight, 'packageWeightKg');
}

/** A required coordinate, checked against the bounds its field declares. */
function coordinate(value: unknown, name: string, field = name): Problem | undefined {
	if (!isGiven(value)) return required(field, value);
	return checkNumber(value, name, field);
}

/** An optional value of a known enumeration (required when `isRequired`). */
export function oneOf(
	record: IDataObject,
	name: string,
	allowed: string[],
	field = name,
	isRequired = false,
): Problem | undefined {
	const value = record[name];
	if (value === undefined || value === '') return isRequired ? required(field, value) : undefined;
	return typeof value === 'string' && allowed.includes(value)
		? undefined
		: { field, value, rule: `must be one of ${allowed.join(', ')}` };
}

/** A required, non-blank text. */
export function text(value: unknown, field: string): Problem | undefined {
	return typeof value === 'string' && value.trim() !== '' ? undefined : required(field, value);
}

/** International format: + then 8 to 15 digits (spaces and dashes are stripped before this). */
function phone(value: unknown, field: string): Problem | undefined {
	if (value === undefined) return undefined;
	return typeof value === 'string' && /^\+\d{8,15}$/.test(value)
		? undefined
		: { field, value, rule: 'must be in international format: + then 8 to 15 digits' };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function isoDateTime(value: unknown, field: string): Problem | undefined {
	if (value === undefined) return undefined;
	return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
		? undefined
		: { field, value, rule: 'must be an ISO 8601 date-time, e.g. 2026-11-23T14:30:00+01:00' };
}

/** The first route field where a booking differs from its quote's, after the spec's defaults. */
export function routeMismatch(booking: IDataObject, quoted: IDataObject): Problem | undefined {
	const withDefaults = (body: IDataObject): IDataObject => ({
		...body,
		serviceType: body.serviceType ?? 'CLICK',
		pickupMethod: body.orderMode ? undefined : (body.pickupMethod ?? 'HOME_PICKUP'),
		dropoffMethod: body.orderMode ? undefined : (body.dropoffMethod ?? 'HOME_DELIVERY'),
	});
	const sent = withDefaults(booking);
	const priced = withDefaults(quoted);
	const field = ROUTE_FIELDS.find(
		(name) => JSON.stringify(sent[name]) !== JSON.stringify(priced[name]),
	);
	if (!field) return undefined;
	return {
		field,
		value: sent[field],
		rule: `differs from the route the quote was priced for (quoted: ${JSON.stringify(priced[field]) ?? 'not set'})`,
		hint: "A booking must repeat its quote's route.",
	};
}
