import { buildRoute, buildRouteOptions } from '../../nodes/PartnerLogistics/shared/routeBody';

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

test('multi-stop turns the stops collection into the API list', () => {
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
