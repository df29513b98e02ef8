// One end of a route (pickup or dropoff): home address and coordinates, or an active hub.
import { invalid } from '../errors';
import { activeHub } from '../fixtures';
import {
	type JsonObject,
	optionalEnum,
	optionalNumber,
	optionalString,
	rejectPresent,
	requiredNumber,
	requiredString,
} from './fields';

export type Side = 'pickup' | 'dropoff';

export const SIDES = {
	pickup: {
		method: 'pickupMethod',
		home: 'HOME_PICKUP',
		hub: 'HUB_DROPOFF',
		hubId: 'pickupHubId',
		address: 'pickupAddress',
		latitude: 'pickupLatitude',
		longitude: 'pickupLongitude',
	},
	dropoff: {
		method: 'dropoffMethod',
		home: 'HOME_DELIVERY',
		hub: 'HUB_PICKUP',
		hubId: 'dropoffHubId',
		address: 'dropoffAddress',
		latitude: 'dropoffLatitude',
		longitude: 'dropoffLongitude',
	},
} as const;

export type PickupMethod = 'HOME_PICKUP' | 'HUB_DROPOFF';
export type DropoffMethod = 'HOME_DELIVERY' | 'HUB_PICKUP';

export interface Endpoint {
	method: string;
	address?: string;
	latitude?: number;
	longitude?: number;
	hubId?: string;
}

/** The endpoint's method, defaulting to the home one as the spec says. */
export function readMethod(body: JsonObject, side: Side): string {
	const f = SIDES[side];
	return optionalEnum(body[f.method], f.method, [f.home, f.hub]) ?? f.home;
}

export function requireActiveHub(value: unknown, field: string, when: string): string {
	const hubId = requiredString(value, field, when);
	if (!activeHub(hubId)) {
		throw invalid(
			field,
			`${field} ${JSON.stringify(hubId)} is not an active hub; use an id from GET /partner-api/hubs.`,
			'UNKNOWN_HUB',
		);
	}
	return hubId;
}

/**
 * Reads the fields of one endpoint. Fields of the other method are refused rather than ignored,
 * so a client that sends a contradictory route learns about it.
 */
export function readEndpoint(body: JsonObject, side: Side, homeFieldsRequired: boolean): Endpoint {
	const f = SIDES[side];
	const method = readMethod(body, side);
	if (method === f.hub) {
		const when = `when ${f.method} is ${f.hub}`;
		rejectPresent(body, [f.address, f.latitude, f.longitude], when);
		return { method, hubId: requireActiveHub(body[f.hubId], f.hubId, when) };
	}
	const when = `when ${f.method} is ${f.home}`;
	rejectPresent(body, [f.hubId], when);
	if (homeFieldsRequired) {
		return {
			method,
			address: requiredString(body[f.address], f.address, when),
			latitude: requiredNumber(body[f.latitude], f.latitude, -90, 90, when),
			longitude: requiredNumber(body[f.longitude], f.longitude, -180, 180, when),
		};
	}
	return {
		method,
		address: optionalString(body[f.address], f.address),
		latitude: optionalNumber(body[f.latitude], f.latitude, -90, 90),
		longitude: optionalNumber(body[f.longitude], f.longitude, -180, 180),
	};
}

/** The endpoint as flat API fields (pickupMethod, pickupAddress, ...), absent ones left out. */
export function endpointFields(side: Side, e: Endpoint): JsonObject {
	const f = SIDES[side];
	const out: JsonObject = { [f.method]: e.method };
	if (e.address !== undefined) out[f.address] = e.address;
	if (e.latitude !== undefined) out[f.latitude] = e.latitude;
	if (e.longitude !== undefined) out[f.longitude] = e.longitude;
	if (e.hubId !== undefined) out[f.hubId] = e.hubId;
	return out;
}
