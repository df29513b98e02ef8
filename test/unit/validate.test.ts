import type { IDataObject } from 'n8n-workflow';

import { paymentCheck } from '../../nodes/PartnerLogistics/payment/initiation';
import type { BodyInput } from '../../nodes/PartnerLogistics/pipeline/operation';
import { describeProblem, labelsOf } from '../../nodes/PartnerLogistics/pipeline/operation/labels';
import { HIDDEN } from '../../nodes/PartnerLogistics/pipeline/problem';
import { bookingCreate } from '../../nodes/PartnerLogistics/resources/booking/create';
import { goBulkCheck as validateQuoteRequest } from '../../nodes/PartnerLogistics/route/goBulk';
import { routeMismatch, validateRoute } from '../../nodes/PartnerLogistics/route/rules';

/** A payment check as each endpoint has it: a card only, or a card or credit. */
const validatePayment = (body: IDataObject, methods: string[]) =>
	paymentCheck({ credit: methods.includes('CREDIT'), stage: false })(body, {} as BodyInput);

const home = {
	pickupAddress: 'a',
	pickupLatitude: 1,
	pickupLongitude: 2,
	dropoffAddress: 'b',
	dropoffLatitude: 3,
	dropoffLongitude: 4,
};
const stops = [
	{ type: 'PICKUP', address: 'a', latitude: 1, longitude: 1 },
	{ type: 'DROPOFF', address: 'b', latitude: 2, longitude: 2 },
	{ type: 'DROPOFF', address: 'c', latitude: 3, longitude: 3, phone: '+2348031234567' },
];

describe('validateRoute accepts the nine forms', () => {
	test.each([
		['CLICK home to home, serviceType omitted', { ...home }],
		['GO_LIGHT home to home', { serviceType: 'GO_LIGHT', ...home }],
		['EXPRESS home to home', { serviceType: 'EXPRESS', packageWeightKg: 1, ...home }],
		['multi-stop', { serviceType: 'CLICK', orderMode: 'MULTI_STOP', stops }],
		[
			'GO_LIGHT home to hub',
			{
				serviceType: 'GO_LIGHT',
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: 'h',
				pickupAddress: 'a',
				pickupLatitude: 0,
				pickupLongitude: 0,
			},
		],
		[
			'GO_LIGHT hub to home',
			{
				serviceType: 'GO_LIGHT',
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: 'h',
				dropoffAddress: 'b',
				dropoffLatitude: -90,
				dropoffLongitude: 180,
			},
		],
		[
			'GO_LIGHT hub to hub',
			{
				serviceType: 'GO_LIGHT',
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: 'h',
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: 'i',
			},
		],
		[
			'EXPRESS home to hub',
			{
				serviceType: 'EXPRESS',
				packageWeightKg: 0.01,
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: 'h',
				pickupAddress: 'a',
				pickupLatitude: 0,
				pickupLongitude: 0,
			},
		],
		[
			'EXPRESS hub to home',
			{
				serviceType: 'EXPRESS',
				packageWeightKg: 50,
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: 'h',
				dropoffAddress: 'b',
				dropoffLatitude: 90,
				dropoffLongitude: -180,
			},
		],
		[
			'EXPRESS hub to hub',
			{
				serviceType: 'EXPRESS',
				packageWeightKg: 5,
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: 'h',
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: 'i',
			},
		],
	])('%s', (_, body) => {
		expect(validateRoute(body)).toBeUndefined();
	});
});

describe('validateRoute refuses', () => {
	test.each([
		['GO_BULK', { serviceType: 'GO_BULK', ...home }, 'serviceType'],
		['an unknown service', { serviceType: 'TRAIN', ...home }, 'serviceType'],
		[
			'CLICK through a hub',
			{
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: 'h',
				dropoffAddress: 'b',
				dropoffLatitude: 1,
				dropoffLongitude: 1,
			},
			'pickupMethod',
		],
		['EXPRESS without weight', { serviceType: 'EXPRESS', ...home }, 'packageWeightKg'],
		[
			'a weight as text',
			{ serviceType: 'EXPRESS', packageWeightKg: '2', ...home },
			'packageWeightKg',
		],
		[
			'multi-stop on GO_LIGHT',
			{ serviceType: 'GO_LIGHT', orderMode: 'MULTI_STOP', stops },
			'serviceType',
		],
		['stops without MULTI_STOP', { serviceType: 'CLICK', stops }, 'orderMode'],
		[
			'a stop without type',
			{
				serviceType: 'CLICK',
				orderMode: 'MULTI_STOP',
				stops: [{ ...stops[0], type: undefined }, stops[1], stops[2]],
			},
			'stops[0].type',
		],
		[
			'a stop phone',
			{
				serviceType: 'CLICK',
				orderMode: 'MULTI_STOP',
				stops: [stops[0], stops[1], { ...stops[2], phone: '123' }],
			},
			'stops[2].phone',
		],
		[
			'an unknown pickup method',
			{ ...home, serviceType: 'GO_LIGHT', pickupMethod: 'DRONE' },
			'pickupMethod',
		],
		['a delivery mode', { ...home, serviceType: 'GO_LIGHT', deliveryMode: 'FAST' }, 'deliveryMode'],
		['a NaN coordinate', { ...home, pickupLatitude: Number.NaN }, 'pickupLatitude'],
		['a scheduledAt date only', { ...home, scheduledAt: '2026-11-23' }, 'scheduledAt'],
	])('%s', (_, body, field) => {
		expect(validateRoute(body as never)?.field).toBe(field);
	});

	test('accepts ISO date-times with and without a zone', () => {
		for (const scheduledAt of [
			'2026-11-23T14:30:00+01:00',
			'2026-11-23T14:30:00Z',
			'2026-11-23T14:30',
			'2026-11-23T14:30:00.123+0100',
		]) {
			expect(validateRoute({ ...home, scheduledAt })).toBeUndefined();
		}
	});
});

describe('routeMismatch', () => {
	test('equal after defaults', () => {
		expect(routeMismatch({ serviceType: 'CLICK', ...home }, { ...home })).toBeUndefined();
		expect(
			routeMismatch({ ...home, pickupMethod: 'HOME_PICKUP', vehicleType: 'VAN' }, { ...home }),
		).toBeUndefined();
	});

	test('names the first differing route field and the quoted value', () => {
		const problem = routeMismatch(
			{ ...home, dropoffHubId: 'x', dropoffMethod: 'HUB_PICKUP' },
			{ ...home },
		);
		expect(problem?.field).toBe('dropoffMethod');
		expect(problem?.rule).toContain('(quoted: "HOME_DELIVERY")');
	});
});

describe('validatePayment', () => {
	test('SAVED_CARD needs a card; CREDIT only where offered', () => {
		expect(
			validatePayment({ paymentMethod: 'SAVED_CARD', paymentMethodId: 'pm' }, ['SAVED_CARD']),
		).toBeUndefined();
		expect(validatePayment({ paymentMethod: 'SAVED_CARD' }, ['SAVED_CARD'])?.field).toBe(
			'paymentMethodId',
		);
		expect(validatePayment({ paymentMethod: 'CREDIT' }, ['SAVED_CARD'])).toMatchObject({
			rule: 'must be SAVED_CARD',
			hint: expect.stringMatching(/CREDIT is not accepted/),
		});
		expect(validatePayment({ paymentMethod: 'CREDIT' }, ['SAVED_CARD', 'CREDIT'])).toBeUndefined();
	});

	test.each([
		'amount',
		'cardNumber',
		'CVC',
		'expiry_month',
		'provider-reference',
		'paymentProof',
		'status',
	])('refuses %s at any depth without echoing it', (field) => {
		const problem = validatePayment(
			{ paymentMethod: 'CREDIT', extra: [{ [field]: 'secret-value' }] },
			['SAVED_CARD', 'CREDIT'],
		);
		expect(problem?.field).toBe(`extra[0].${field}`);
		expect(problem?.value).toBe(HIDDEN);
	});
});

test('validateQuoteRequest asks for a hub only with a hub method', () => {
	expect(validateQuoteRequest({})).toBeUndefined();
	expect(validateQuoteRequest({ pickupMethod: 'HUB_DROPOFF' })?.field).toBe('pickupHubId');
	expect(validateQuoteRequest({ quantity: 1.5 })?.field).toBe('quantity');
	expect(validateQuoteRequest({ dropoffLatitude: 95 })?.field).toBe('dropoffLatitude');
});

/** The labels of Booking › Create's form: the route, the quote ID and the stops. */
const labels = labelsOf(bookingCreate.fields ?? []);

test('describeProblem: the item counted from 1, the label first, the API name second', () => {
	expect(
		describeProblem(
			{ field: 'pickupLatitude', value: 120, rule: 'must be between −90 and 90' },
			labels,
			4,
		),
	).toBe('Item 5: Pickup Latitude (pickupLatitude) must be between −90 and 90, got 120');
	expect(describeProblem({ field: 'quoteId', value: '', rule: 'is required' }, labels, 0)).toBe(
		'Item 1: Quote ID (quoteId) is required, got nothing',
	);
	expect(describeProblem({ field: 'stops[2].latitude', value: 'x', rule: 'r' }, labels, 0)).toBe(
		'Item 1: Stop 3 Latitude (stops[2].latitude) r, got "x"',
	);
	expect(describeProblem({ field: 'unknownField', value: 1, rule: 'r' }, labels, 0)).toBe(
		'Item 1: unknownField r, got 1',
	);
	expect(
		describeProblem(
			{ field: 'quotedRoute', label: 'Quoted Route', value: 1, rule: 'r' },
			labels,
			0,
		),
	).toBe('Item 1: Quoted Route (quotedRoute) r, got 1');
});

test("describeProblem names the item's own reference, and never repeats a hidden value", () => {
	expect(
		describeProblem(
			{ field: 'pickupAddress', value: '', rule: 'is required' },
			labels,
			9,
			'externalReference ORDER-10045',
		),
	).toBe(
		'Item 10 (externalReference ORDER-10045): Pickup Address (pickupAddress) is required, got nothing',
	);
	expect(
		describeProblem({ field: 'amount', value: HIDDEN, rule: 'must not be sent' }, labels, 0),
	).toBe('Item 1: amount must not be sent');
});
