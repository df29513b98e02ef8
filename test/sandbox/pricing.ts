// Deterministic prices, so the same route always costs the same (tests may compare amounts).
import { activeHub, CURRENCY } from './fixtures';
import type { Money } from './store';
import type { DirectRoute } from './validate/route';

type Point = { latitude: number; longitude: number };

const BASE: Record<DirectRoute['serviceType'], { fee: number; perKm: number }> = {
	CLICK: { fee: 1500, perKm: 150 },
	GO_LIGHT: { fee: 1200, perKm: 90 },
	EXPRESS: { fee: 2500, perKm: 200 },
};

function distanceKm(a: Point, b: Point): number {
	const rad = (deg: number) => (deg * Math.PI) / 180;
	const dLat = rad(b.latitude - a.latitude);
	const dLon = rad(b.longitude - a.longitude);
	const h =
		Math.sin(dLat / 2) ** 2 +
		Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
	return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function endpoint(latitude?: number, longitude?: number, hubId?: string): Point {
	const hub = hubId ? activeHub(hubId) : undefined;
	return hub ?? { latitude: latitude ?? 0, longitude: longitude ?? 0 };
}

function routePoints(r: DirectRoute): Point[] {
	if (r.stops) return r.stops;
	return [
		endpoint(r.pickupLatitude, r.pickupLongitude, r.pickupHubId),
		endpoint(r.dropoffLatitude, r.dropoffLongitude, r.dropoffHubId),
	];
}

export function priceRoute(route: DirectRoute): Money {
	const points = routePoints(route);
	let km = 0;
	for (let i = 1; i < points.length; i++) km += distanceKm(points[i - 1], points[i]);
	const { fee, perKm } = BASE[route.serviceType];
	let amount = fee + perKm * km + 120 * (route.packageWeightKg ?? 0);
	if (route.deliveryMode === 'EXPRESS') amount *= 1.5;
	return { amount: Math.round(amount), currency: CURRENCY };
}
