import type { IDataObject } from 'n8n-workflow';

import { firstProblem, isGiven, required, type Problem } from '../pipeline/problem';
import { ENDS, SIDES, type Side } from './ends';
import { ROUTE_FIELDS, SERVICES } from './form';
import { checkNumber } from './numbers';

const MANUAL_SERVICES: Record<string, string> = {
	GO_BULK: 'Use the Quote Request resource (manual GO_BULK quotation) instead.',
	HAUL: 'Use the Haulage Quotation resource (manual HAUL quotation) instead.',
};

/** A direct quote or booking body's first problem against the spec's nine forms and bounds. */
export function validateRoute(body: IDataObject): Problem | undefined {
	const service = body.serviceType ?? 'CLICK';
	if (typeof service !== 'string' || !Object.keys(SERVICES).includes(service)) {
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
		firstProblem(['pickupPhone', 'dropoffPhone'].map((field) => phone(body[field], field))) ??
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

/** Each end's method, then its hub or home (required for a direct `service`, not for GO_BULK). */
export function validateEnds(body: IDataObject, service?: string): Problem | undefined {
	const viaHub = (side: Side) => body[`${side}Method`] === ENDS[side].hub;
	const hubSide = SIDES.find(viaHub);
	const method = firstProblem(
		SIDES.map((side) => oneOf(body, `${side}Method`, [ENDS[side].home, ENDS[side].hub])),
	);
	if (method) return method;
	if (service === 'CLICK' && hubSide) {
		return {
			field: `${hubSide}Method`,
			value: body[`${hubSide}Method`],
			rule: 'must be a home method for CLICK',
			hint: 'CLICK goes home to home or multi-stop; choose GO_LIGHT or EXPRESS for hub routes.',
		};
	}
	const home = (side: Side) =>
		text(body[`${side}Address`], `${side}Address`) ??
		coordinate(body[`${side}Latitude`], `${side}Latitude`) ??
		coordinate(body[`${side}Longitude`], `${side}Longitude`);
	return firstProblem(
		SIDES.map((side) =>
			viaHub(side) ? text(body[`${side}HubId`], `${side}HubId`) : service ? home(side) : undefined,
		),
	);
}

function validateWeight({ packageWeightKg: value }: IDataObject, service: string) {
	if (value !== undefined) return checkNumber(value, 'packageWeightKg');
	return service === 'EXPRESS'
		? { field: 'packageWeightKg', value, rule: 'is required for EXPRESS' }
		: undefined;
}

const coordinate = (value: unknown, name: string, field = name) =>
	isGiven(value) ? checkNumber(value, name, field) : required(field, value);

/** An optional value of a known enumeration (required when `isRequired`). */
function oneOf(
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

export const text = (value: unknown, field: string) =>
	typeof value === 'string' && value.trim() !== '' ? undefined : required(field, value);

/** International format: + then 8 to 15 digits (spaces and dashes are stripped before this). */
function phone(value: unknown, field: string): Problem | undefined {
	if (value === undefined) return undefined;
	return typeof value === 'string' && /^\+\d{8,15}$/.test(value)
		? undefined
		: { field, value, rule: 'must be in international format: + then 8 to 15 digits' };
}

function isoDateTime(value: unknown, field: string): Problem | undefined {
	if (value === undefined) return undefined;
	const form = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
	return typeof value === 'string' && form.test(value) && !Number.isNaN(Date.parse(value))
		? undefined
		: {
				field,
				value,
				rule: 'must be an ISO 8601 date-time',
				hint: 'e.g. 2026-11-23T14:30:00+01:00',
			};
}

const methodOf = (body: IDataObject, side: Side) => body[`${side}Method`] ?? ENDS[side].home;

/** The first route field where a booking differs from its quote's, after the spec's defaults. */
export function routeMismatch(booking: IDataObject, quoted: IDataObject): Problem | undefined {
	const withDefaults = (body: IDataObject): IDataObject => ({
		...body,
		serviceType: body.serviceType ?? 'CLICK',
		pickupMethod: body.orderMode ? undefined : methodOf(body, 'pickup'),
		dropoffMethod: body.orderMode ? undefined : methodOf(body, 'dropoff'),
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
		rule: 'differs from the route the quote was priced for',
		hint: `Quoted: ${JSON.stringify(priced[field]) ?? 'not set'}. A booking must repeat its quote's route.`,
	};
}
