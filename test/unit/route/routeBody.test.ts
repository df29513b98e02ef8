import {
	buildRoute,
	buildRouteOptions,
	routeFromItem,
} from '../../../nodes/PartnerLogistics/route/body';

const reader = (values: Record<string, unknown>) => (name: string) => values[name] as never;

test('CLICK sends the home fields only, whatever else is set', () => {
	const body = buildRoute(
		reader({
			serviceType: 'CLICK',
			orderMode: 'SINGLE',
			pickupAddress: 'a',
			pickupLatitude: '6.5',
			pickupLongitude: 3,
			dropoffAddress: 'b',
			dropoffLatitude: 1,
			dropoffLongitude: 2,
			pickupHubId: 'stale',
			packageWeightKg: 9,
		}),
	);
	expect(body).toEqual({
		serviceType: 'CLICK',
		pickupAddress: 'a',
		pickupLatitude: 6.5,
		pickupLongitude: 3,
		dropoffAddress: 'b',
		dropoffLatitude: 1,
		dropoffLongitude: 2,
	});
});

test('multi-stop turns the numbered Stop 1-3 into the API list, numeric strings as numbers', () => {
	const body = buildRoute(
		reader({
			serviceType: 'CLICK',
			orderMode: 'MULTI_STOP',
			stops: {
				stop1: { type: 'PICKUP', address: 'a', latitude: '1.5', longitude: ' 2 ', phone: '' },
				stop2: { type: 'DROPOFF', address: 'b', latitude: 3, longitude: 4 },
				stop3: { type: '', address: 'c', latitude: '', longitude: 'east' },
			},
		}),
	);
	expect(body.stops).toEqual([
		{ type: 'PICKUP', address: 'a', latitude: 1.5, longitude: 2 },
		{ type: 'DROPOFF', address: 'b', latitude: 3, longitude: 4 },
		{ address: 'c', longitude: 'east' },
	]);
});

test('routeFromItem reads only the API names an item carries, converting numeric strings', () => {
	expect(
		routeFromItem({
			orderId: 'not sent',
			serviceType: 'EXPRESS',
			packageWeightKg: '2.5',
			pickupAddress: 'a',
			pickupLatitude: '6.5',
			pickupLongitude: 3,
			dropoffMethod: 'HUB_PICKUP',
			dropoffHubId: 'hub_1',
			externalReference: 'ORDER-1',
			pickupPhone: '+234 803-123 4567',
			deliveryNote: '',
		}),
	).toEqual({
		serviceType: 'EXPRESS',
		packageWeightKg: 2.5,
		pickupAddress: 'a',
		pickupLatitude: 6.5,
		pickupLongitude: 3,
		dropoffMethod: 'HUB_PICKUP',
		dropoffHubId: 'hub_1',
		externalReference: 'ORDER-1',
		pickupPhone: '+2348031234567',
	});
});

test('the saved list form of stops (stops.stop[]) is still read', () => {
	const body = buildRoute(
		reader({
			serviceType: 'CLICK',
			orderMode: 'MULTI_STOP',
			stops: {
				stop: [{ type: 'PICKUP', address: 'a', latitude: 1, longitude: 2, phone: '+234 80-1' }],
			},
		}),
	);
	expect(body).toEqual({
		serviceType: 'CLICK',
		orderMode: 'MULTI_STOP',
		stops: [{ type: 'PICKUP', address: 'a', latitude: 1, longitude: 2, phone: '+234801' }],
	});
});

test('GO_LIGHT hub to home sends the hub and the home fields of the other side', () => {
	const body = buildRoute(
		reader({
			serviceType: 'GO_LIGHT',
			deliveryMode: 'EXPRESS',
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: 'hub_1',
			pickupAddress: 'stale',
			dropoffAddress: 'b',
			dropoffLatitude: 1,
			dropoffLongitude: 2,
		}),
	);
	expect(body).toEqual({
		serviceType: 'GO_LIGHT',
		deliveryMode: 'EXPRESS',
		pickupMethod: 'HUB_DROPOFF',
		pickupHubId: 'hub_1',
		dropoffMethod: 'HOME_DELIVERY',
		dropoffAddress: 'b',
		dropoffLatitude: 1,
		dropoffLongitude: 2,
	});
});

test('options: empty fields are left out, phones lose spaces and dashes', () => {
	expect(
		buildRouteOptions({ pickupPhone: '+234 803-123 4567', promoCode: '', deliveryNote: 'ring' }),
	).toEqual({ pickupPhone: '+2348031234567', deliveryNote: 'ring' });
});
