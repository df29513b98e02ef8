// The routes every side of the benches sends: CLICK home to home in Lagos, each a little
// different so no two requests carry the same body.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

const round6 = (value: number) => Number(value.toFixed(6));

export function routeBodies(count: number): IDataObject[] {
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

/** Quote › Create reading the route of each incoming item, as a workflow fed by a sheet would. */
export const quoteCreateParameters: INodeParameters = {
	resource: 'quote',
	operation: 'create',
	serviceType: 'CLICK',
	orderMode: 'SINGLE',
	pickupAddress: '={{ $json.pickupAddress }}',
	pickupLatitude: '={{ $json.pickupLatitude }}',
	pickupLongitude: '={{ $json.pickupLongitude }}',
	dropoffAddress: '={{ $json.dropoffAddress }}',
	dropoffLatitude: '={{ $json.dropoffLatitude }}',
	dropoffLongitude: '={{ $json.dropoffLongitude }}',
};

/** The same route for bench/declarativeNode.ts, plus a unique Idempotency-Key per item. */
export const declarativeParameters: INodeParameters = {
	serviceType: 'CLICK',
	...Object.fromEntries(
		Object.entries(quoteCreateParameters).filter(
			([name]) => name.startsWith('pickup') || name.startsWith('dropoff'),
		),
	),
	idempotencyKey: '={{ $execution.id }}-{{ $itemIndex }}',
};
