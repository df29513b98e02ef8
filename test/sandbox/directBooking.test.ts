import { type ApiClient, apiClient } from './apiClient';
import { type Sandbox, startSandbox } from './index';
import { HOME_DROPOFF, HOME_PICKUP, routeForms, STOPS } from './routeForms';

let sandbox: Sandbox;
let api: ApiClient;
let hubA: string;
let hubB: string;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = apiClient(sandbox);
	[hubA, hubB] = sandbox.hubs.active;
});
afterAll(() => sandbox.close());

const homeToHome = { ...HOME_PICKUP, ...HOME_DROPOFF };

async function quote(body: Record<string, unknown>) {
	const res = await api.post('/partner-api/booking-quotes', body);
	expect(res.status).toBe(201);
	return res.body;
}

describe('direct quotes: the nine accepted route forms', () => {
	test.each(routeForms('hub_lag_ikeja', 'hub_lag_lekki'))(
		'%s is quoted and booked',
		async (_name, body, form) => {
			const q = await quote(body);
			expect(q).toMatchObject({ quoteId: expect.any(String), routeForm: form, status: 'VALID' });
			expect(q.price).toEqual({ amount: expect.any(Number), currency: 'NGN' });
			expect(q.price.amount).toBeGreaterThan(0);

			const booking = await api.post('/partner-api/bookings', { ...body, quoteId: q.quoteId });
			expect(booking.status).toBe(201);
			expect(booking.body).toMatchObject({
				bookingId: expect.any(String),
				quoteId: q.quoteId,
				status: 'AWAITING_PAYMENT',
				price: q.price,
			});
		},
	);

	test('defaults: CLICK, HOME_PICKUP and HOME_DELIVERY; expiry after the TTL', async () => {
		const before = Date.now();
		const q = await quote(homeToHome);
		expect(q).toMatchObject({
			serviceType: 'CLICK',
			pickupMethod: 'HOME_PICKUP',
			dropoffMethod: 'HOME_DELIVERY',
		});
		const ttl = Date.parse(q.expiresAt) - before;
		expect(ttl).toBeGreaterThan(14 * 60_000);
		expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 1000);
	});

	test('boundary weights 0.01 and 50 are accepted', async () => {
		for (const packageWeightKg of [0.01, 50]) {
			await quote({ serviceType: 'EXPRESS', packageWeightKg, ...homeToHome });
		}
	});

	test('the same route always gets the same price', async () => {
		const a = await quote(homeToHome);
		const b = await quote(homeToHome);
		expect(a.price).toEqual(b.price);
	});
});

describe('direct quotes: validation (400 naming the field)', () => {
	const hubs = () => ({ a: hubA, b: hubB, inactive: sandbox.hubs.inactive[0] });
	const goLightHubToHub = () => ({
		serviceType: 'GO_LIGHT',
		pickupMethod: 'HUB_DROPOFF',
		pickupHubId: hubs().a,
		dropoffMethod: 'HUB_PICKUP',
		dropoffHubId: hubs().b,
	});
	const multiStop = { serviceType: 'CLICK', orderMode: 'MULTI_STOP', stops: STOPS };
	const withoutPickupAddress = { ...homeToHome, pickupAddress: undefined };
	const withoutDropoffLongitude = { ...homeToHome, dropoffLongitude: undefined };

	const cases: Array<[string, () => Record<string, unknown>, string, string?]> = [
		[
			'GO_BULK goes to the manual flow',
			() => ({ ...homeToHome, serviceType: 'GO_BULK' }),
			'serviceType',
			'SERVICE_NOT_DIRECT',
		],
		[
			'HAUL goes to the manual flow',
			() => ({ ...homeToHome, serviceType: 'HAUL' }),
			'serviceType',
			'SERVICE_NOT_DIRECT',
		],
		['unknown serviceType', () => ({ ...homeToHome, serviceType: 'SAME_DAY' }), 'serviceType'],
		['home pickup without pickupAddress', () => withoutPickupAddress, 'pickupAddress'],
		['home delivery without dropoffLongitude', () => withoutDropoffLongitude, 'dropoffLongitude'],
		['latitude above 90', () => ({ ...homeToHome, pickupLatitude: 90.5 }), 'pickupLatitude'],
		[
			'longitude below -180',
			() => ({ ...homeToHome, dropoffLongitude: -180.1 }),
			'dropoffLongitude',
		],
		[
			'coordinate sent as a string',
			() => ({ ...homeToHome, pickupLatitude: '6.6' }),
			'pickupLatitude',
		],
		[
			'EXPRESS without packageWeightKg',
			() => ({ ...homeToHome, serviceType: 'EXPRESS' }),
			'packageWeightKg',
		],
		[
			'weight below 0.01',
			() => ({ ...homeToHome, serviceType: 'EXPRESS', packageWeightKg: 0 }),
			'packageWeightKg',
		],
		[
			'weight above 50',
			() => ({ ...homeToHome, serviceType: 'EXPRESS', packageWeightKg: 50.5 }),
			'packageWeightKg',
		],
		[
			'weight as a string',
			() => ({ ...homeToHome, serviceType: 'EXPRESS', packageWeightKg: '2' }),
			'packageWeightKg',
		],
		[
			'deliveryMode other than STANDARD/EXPRESS',
			() => ({ ...homeToHome, serviceType: 'GO_LIGHT', deliveryMode: 'OVERNIGHT' }),
			'deliveryMode',
		],
		[
			'vehicleType other than BIKE/VAN/TRUCK',
			() => ({ ...homeToHome, vehicleType: 'PLANE' }),
			'vehicleType',
		],
		['unknown pickupMethod', () => ({ ...homeToHome, pickupMethod: 'DRONE' }), 'pickupMethod'],
		[
			'hub form without serviceType',
			() => ({ ...goLightHubToHub(), serviceType: undefined }),
			'serviceType',
		],
		['CLICK through a hub', () => ({ ...goLightHubToHub(), serviceType: 'CLICK' }), 'serviceType'],
		[
			'HUB_DROPOFF without pickupHubId',
			() => ({ ...goLightHubToHub(), pickupHubId: undefined }),
			'pickupHubId',
		],
		[
			'HUB_PICKUP with an inactive hub',
			() => ({ ...goLightHubToHub(), dropoffHubId: hubs().inactive }),
			'dropoffHubId',
			'UNKNOWN_HUB',
		],
		[
			'HUB_DROPOFF with an unknown hub',
			() => ({ ...goLightHubToHub(), pickupHubId: 'hub_nowhere' }),
			'pickupHubId',
			'UNKNOWN_HUB',
		],
		[
			'hub method with a home address',
			() => ({ ...goLightHubToHub(), pickupAddress: 'x' }),
			'pickupAddress',
		],
		['home method with a hub id', () => ({ ...homeToHome, pickupHubId: hubs().a }), 'pickupHubId'],
		[
			'multi-stop without serviceType',
			() => ({ ...multiStop, serviceType: undefined }),
			'serviceType',
		],
		[
			'multi-stop that is not CLICK',
			() => ({ ...multiStop, serviceType: 'GO_LIGHT' }),
			'serviceType',
		],
		['multi-stop with 2 stops', () => ({ ...multiStop, stops: STOPS.slice(0, 2) }), 'stops'],
		['multi-stop with 4 stops', () => ({ ...multiStop, stops: [...STOPS, STOPS[0]] }), 'stops'],
		['stops without orderMode', () => ({ ...multiStop, orderMode: undefined }), 'orderMode'],
		['orderMode other than MULTI_STOP', () => ({ ...multiStop, orderMode: 'BATCH' }), 'orderMode'],
		[
			'stop type other than PICKUP/DROPOFF',
			() => ({ ...multiStop, stops: [STOPS[0], { ...STOPS[1], type: 'VIA' }, STOPS[2]] }),
			'stops[1].type',
		],
		[
			'stop without address',
			() => ({ ...multiStop, stops: [{ ...STOPS[0], address: undefined }, STOPS[1], STOPS[2]] }),
			'stops[0].address',
		],
		[
			'stop latitude out of range',
			() => ({ ...multiStop, stops: [STOPS[0], STOPS[1], { ...STOPS[2], latitude: -91 }] }),
			'stops[2].latitude',
		],
		[
			'stop phone not international',
			() => ({
				...multiStop,
				stops: [STOPS[0], STOPS[1], { ...STOPS[2], phone: '0801 234 5678' }],
			}),
			'stops[2].phone',
		],
		[
			'multi-stop with pickup fields',
			() => ({ ...multiStop, pickupAddress: 'x' }),
			'pickupAddress',
		],
		[
			'pickupPhone not international',
			() => ({ ...homeToHome, pickupPhone: '08012345678' }),
			'pickupPhone',
		],
		[
			'scheduledAt not ISO 8601',
			() => ({ ...homeToHome, scheduledAt: 'tomorrow 9am' }),
			'scheduledAt',
		],
	];

	test.each(cases)('%s', async (_name, body, field, code = 'VALIDATION_ERROR') => {
		const res = await api.post('/partner-api/booking-quotes', body());
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code, field });
		expect(res.body.message).toContain(field.replace(/\[\d+\]\..*/, ''));
	});

	test('a body that is not JSON, or not an object', async () => {
		const notJson = await api.post('/partner-api/booking-quotes', undefined, {
			raw: '{"pickupAddress":',
		});
		expect(notJson.status).toBe(400);
		expect(notJson.body.code).toBe('INVALID_JSON');
		const array = await api.post('/partner-api/booking-quotes', [homeToHome]);
		expect(array.status).toBe(400);
		expect(array.body.code).toBe('INVALID_BODY');
	});

	test('nothing is stored for a rejected quote', async () => {
		const before = sandbox.admin.state().A.counts.quotes;
		await api.post('/partner-api/booking-quotes', { ...homeToHome, pickupLatitude: 100 });
		expect(sandbox.admin.state().A.counts.quotes).toBe(before);
	});
});

describe('bookings', () => {
	test('quoteId is required', async () => {
		const res = await api.post('/partner-api/bookings', homeToHome);
		expect(res.status).toBe(400);
		expect(res.body.field).toBe('quoteId');
	});

	test('an unknown quote is 404', async () => {
		const res = await api.post('/partner-api/bookings', { ...homeToHome, quoteId: 'qt_999999' });
		expect(res.status).toBe(404);
		expect(res.body.code).toBe('NOT_FOUND');
	});

	test('explicit defaults match a quote that omitted them', async () => {
		const q = await quote(homeToHome);
		const res = await api.post('/partner-api/bookings', {
			...homeToHome,
			serviceType: 'CLICK',
			pickupMethod: 'HOME_PICKUP',
			dropoffMethod: 'HOME_DELIVERY',
			quoteId: q.quoteId,
			externalReference: 'order-77',
		});
		expect(res.status).toBe(201);
		expect(res.body.externalReference).toBe('order-77');
	});

	test.each([
		['a different hub id', { pickupHubId: 'hub_lag_yaba' }, 'pickupHubId'],
		['a different weight', { packageWeightKg: 3 }, 'packageWeightKg'],
		['a different service', { serviceType: 'GO_LIGHT' }, 'serviceType'],
	])('%s than the quote is 400 ROUTE_MISMATCH', async (_name, change, field) => {
		const body = { ...routeForms(hubA, hubB)[9][1] };
		const q = await quote(body);
		const res = await api.post('/partner-api/bookings', { ...body, ...change, quoteId: q.quoteId });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'ROUTE_MISMATCH', field });
	});

	test('a changed stop is named in ROUTE_MISMATCH', async () => {
		const body = { serviceType: 'CLICK', orderMode: 'MULTI_STOP', stops: STOPS };
		const q = await quote(body);
		const stops = [STOPS[0], { ...STOPS[1], address: 'elsewhere' }, STOPS[2]];
		const res = await api.post('/partner-api/bookings', { ...body, stops, quoteId: q.quoteId });
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({ code: 'ROUTE_MISMATCH', field: 'stops[1].address' });
	});

	test('a quote is booked once: 409 QUOTE_ALREADY_BOOKED with another key', async () => {
		const q = await quote(homeToHome);
		const first = await api.post('/partner-api/bookings', { ...homeToHome, quoteId: q.quoteId });
		expect(first.status).toBe(201);
		const second = await api.post('/partner-api/bookings', { ...homeToHome, quoteId: q.quoteId });
		expect(second.status).toBe(409);
		expect(second.body.code).toBe('QUOTE_ALREADY_BOOKED');
	});

	test('an expired quote is 409 QUOTE_EXPIRED and creates no booking', async () => {
		sandbox.admin.setQuoteTtl(30);
		try {
			const q = await quote(homeToHome);
			await new Promise((r) => setTimeout(r, 60));
			const before = sandbox.admin.state().A.counts.bookings;
			const res = await api.post('/partner-api/bookings', { ...homeToHome, quoteId: q.quoteId });
			expect(res.status).toBe(409);
			expect(res.body.code).toBe('QUOTE_EXPIRED');
			expect(sandbox.admin.state().A.counts.bookings).toBe(before);
		} finally {
			sandbox.admin.setQuoteTtl(15 * 60_000);
		}
	});
});
