// The routes every side of the quote bench sends: CLICK home to home in Lagos, each a little
// different so no two requests carry the same body. Shaped like a CSV row with the API's names.

const round6 = (value: number) => Number(value.toFixed(6));

export const ROUTE_FIELDS = [
	'serviceType',
	'pickupAddress',
	'pickupLatitude',
	'pickupLongitude',
	'dropoffAddress',
	'dropoffLatitude',
	'dropoffLongitude',
] as const;

export type Route = Record<(typeof ROUTE_FIELDS)[number], string | number>;

export function routeBodies(count: number): Route[] {
	return Array.from({ length: count }, (_, i) => ({
		serviceType: 'CLICK',
		pickupAddress: `${i + 1} Allen Avenue, Ikeja, Lagos`,
		pickupLatitude: round6(6.6018 + (i % 100) * 0.0001),
		pickupLongitude: round6(3.3515 + Math.floor(i / 100) * 0.0001),
		dropoffAddress: `${i + 1} Admiralty Way, Lekki, Lagos`,
		dropoffLatitude: round6(6.4474 - (i % 50) * 0.0001),
		dropoffLongitude: round6(3.4733 + (i % 20) * 0.0001),
	}));
}
