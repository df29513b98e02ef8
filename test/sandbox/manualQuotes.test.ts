import { apiClient } from './apiClient';
import { sandboxPerFile } from './perFile';

const t = sandboxPerFile();

const card = () => ({ paymentMethod: 'SAVED_CARD', paymentMethodId: t.sandbox.savedCards.enabled });

describe('GO_BULK quote requests', () => {
	const create = async (body: Record<string, unknown> = {}) => {
		const res = await t.api.post('/partner-api/quote-requests', body);
		expect(res.status).toBe(201);
		return res.body.quoteRequestId as string;
	};

	test('created leniently, fetched, and shows the quotation once the operator issued it', async () => {
		const id = await create({
			itemDescription: '40 bags of cement',
			quantity: 40,
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: t.sandbox.hubs.active[0],
			dropoffMethod: 'HUB_PICKUP',
			dropoffHubId: t.sandbox.hubs.active[1],
			specialHandlingRequirement: 'keep dry',
		});
		expect(await create()).toMatch(/^qr_/);

		const pending = await t.api.get(`/partner-api/quote-requests/${id}`);
		expect(pending.body).toMatchObject({
			quoteRequestId: id,
			status: 'PENDING_QUOTATION',
			quotation: null,
			itemDescription: '40 bags of cement',
			pickupHubId: t.sandbox.hubs.active[0],
		});
		t.sandbox.admin.issueQuoteRequestQuotation(id, { amount: 99_000, currency: 'NGN' });
		const quoted = await t.api.get(`/partner-api/quote-requests/${id}`);
		expect(quoted.body).toMatchObject({
			status: 'QUOTED',
			quotation: { amount: 99_000, currency: 'NGN', creditTerms: false, expired: false },
		});
	});

	test.each([
		['a hub method without hub id', { pickupMethod: 'HUB_DROPOFF' }, 'pickupHubId'],
		[
			'an inactive hub',
			{ dropoffMethod: 'HUB_PICKUP', dropoffHubId: 'hub_lag_apapa' },
			'dropoffHubId',
		],
		['a hub id with a home method', { pickupHubId: 'hub_lag_ikeja' }, 'pickupHubId'],
		['quantity as a string', { quantity: '4' }, 'quantity'],
		['a fractional quantity', { quantity: 2.5 }, 'quantity'],
		['another service', { serviceType: 'CLICK' }, 'serviceType'],
	])('400 for %s', async (_name, body, field) => {
		const res = await t.api.post('/partner-api/quote-requests', body);
		expect(res.status).toBe(400);
		expect(res.body.field).toBe(field);
	});

	test('payment before the quotation is 409 QUOTATION_NOT_ISSUED', async () => {
		const id = await create();
		const res = await t.api.post(`/partner-api/quote-requests/${id}/payment`, card());
		expect(res.status).toBe(409);
		expect(res.body.code).toBe('QUOTATION_NOT_ISSUED');
	});

	test('saved-card payment is PENDING until settled', async () => {
		const id = await create();
		t.sandbox.admin.issueQuoteRequestQuotation(id, { amount: 5000 });
		const res = await t.api.post(`/partner-api/quote-requests/${id}/payment`, card());
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({
			status: 'PENDING',
			amount: 5000,
			resourceType: 'QUOTE_REQUEST',
		});
		t.sandbox.admin.settlePayment(res.body.paymentReference);
		expect((await t.api.get(`/partner-api/quote-requests/${id}`)).body.paymentStatus).toBe('PAID');
	});

	test('CREDIT needs org credit, credit terms and an unexpired quotation (409 each)', async () => {
		const credit = { paymentMethod: 'CREDIT' };
		const noTerms = await create();
		t.sandbox.admin.issueQuoteRequestQuotation(noTerms, { creditTerms: false });
		const r1 = await t.api.post(`/partner-api/quote-requests/${noTerms}/payment`, credit);
		expect([r1.status, r1.body.code]).toEqual([409, 'CREDIT_TERMS_NOT_OFFERED']);

		const expired = await create();
		t.sandbox.admin.issueQuoteRequestQuotation(expired, { creditTerms: true, ttlMs: 0 });
		const r2 = await t.api.post(`/partner-api/quote-requests/${expired}/payment`, credit);
		expect([r2.status, r2.body.code]).toEqual([409, 'QUOTATION_EXPIRED']);

		const ok = await create();
		t.sandbox.admin.issueQuoteRequestQuotation(ok, { creditTerms: true });
		t.sandbox.admin.setCredit('A', false);
		const r3 = await t.api.post(`/partner-api/quote-requests/${ok}/payment`, credit);
		expect([r3.status, r3.body.code]).toEqual([409, 'CREDIT_NOT_ENABLED']);

		t.sandbox.admin.setCredit('A', true);
		const r4 = await t.api.post(`/partner-api/quote-requests/${ok}/payment`, credit);
		expect(r4.status).toBe(201);
		expect(r4.body).toMatchObject({ paymentMethod: 'CREDIT', status: 'PENDING' });
	});

	test('credit-accept: once, only with credit terms', async () => {
		const id = await create();
		t.sandbox.admin.issueQuoteRequestQuotation(id, { creditTerms: true });
		const res = await t.api.post(`/partner-api/quote-requests/${id}/credit-accept`);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ quoteRequestId: id, status: 'CREDIT_ACCEPTED' });
		const again = await t.api.post(`/partner-api/quote-requests/${id}/credit-accept`);
		expect([again.status, again.body.code]).toEqual([409, 'ALREADY_CREDIT_ACCEPTED']);
		const pay = await t.api.post(`/partner-api/quote-requests/${id}/payment`, card());
		expect(pay.status).toBe(409);

		const noTerms = await create();
		t.sandbox.admin.issueQuoteRequestQuotation(noTerms);
		const refused = await t.api.post(`/partner-api/quote-requests/${noTerms}/credit-accept`);
		expect([refused.status, refused.body.code]).toEqual([409, 'CREDIT_TERMS_NOT_OFFERED']);
	});

	test('org B has no credit by default', async () => {
		const b = apiClient(t.sandbox, t.sandbox.keys.otherOrg);
		const id = (await b.post('/partner-api/quote-requests', {})).body.quoteRequestId;
		t.sandbox.admin.issueQuoteRequestQuotation(id, { creditTerms: true });
		const res = await b.post(`/partner-api/quote-requests/${id}/credit-accept`);
		expect([res.status, res.body.code]).toEqual([409, 'CREDIT_NOT_ENABLED']);
	});
});

describe('HAUL quotations', () => {
	const base = '/partner-api/haulage/quotations';
	const create = async () => {
		const res = await t.api.post(base, {
			origin: 'Apapa port',
			destination: 'Kano',
			cargo: { tonnes: 20 },
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ status: 'REQUESTED', details: { cargo: { tonnes: 20 } } });
		return res.body.quotationId as string;
	};

	test('accept and decline only a QUOTED quotation (409 otherwise)', async () => {
		const id = await create();
		const early = await t.api.post(`${base}/${id}/accept`);
		expect(early.status).toBe(409);
		t.sandbox.admin.issueHaulageQuotation(id, { amount: 700_000 });
		expect((await t.api.get(`${base}/${id}`)).body.quotation.amount).toBe(700_000);
		const accepted = await t.api.post(`${base}/${id}/accept`);
		expect([accepted.status, accepted.body.status]).toEqual([200, 'ACCEPTED']);
		const decline = await t.api.post(`${base}/${id}/decline`);
		expect([decline.status, decline.body.code]).toEqual([409, 'INVALID_STATE']);

		const other = await create();
		t.sandbox.admin.issueHaulageQuotation(other);
		expect((await t.api.post(`${base}/${other}/decline`)).body.status).toBe('DECLINED');
		const acceptDeclined = await t.api.post(`${base}/${other}/accept`);
		expect([acceptDeclined.status, acceptDeclined.body.code]).toEqual([409, 'INVALID_STATE']);
		const payDeclined = await t.api.post(`${base}/${other}/payment`, card());
		expect(payDeclined.status).toBe(409);
	});

	test('an expired quotation cannot be accepted', async () => {
		const id = await create();
		t.sandbox.admin.issueHaulageQuotation(id, { ttlMs: 0 });
		const res = await t.api.post(`${base}/${id}/accept`);
		expect([res.status, res.body.code]).toEqual([409, 'QUOTATION_EXPIRED']);
	});

	test('payment with paymentStage UPFRONT; other stages are 400; CREDIT needs credit terms', async () => {
		const id = await create();
		t.sandbox.admin.issueHaulageQuotation(id);
		const badStage = await t.api.post(`${base}/${id}/payment`, {
			...card(),
			paymentStage: 'ON_DELIVERY',
		});
		expect([badStage.status, badStage.body.field]).toEqual([400, 'paymentStage']);
		const credit = await t.api.post(`${base}/${id}/payment`, {
			paymentMethod: 'CREDIT',
			paymentStage: 'UPFRONT',
		});
		expect([credit.status, credit.body.code]).toEqual([409, 'CREDIT_TERMS_NOT_OFFERED']);
		const paid = await t.api.post(`${base}/${id}/payment`, { ...card(), paymentStage: 'UPFRONT' });
		expect(paid.status).toBe(201);
		expect(paid.body).toMatchObject({
			paymentStage: 'UPFRONT',
			resourceType: 'HAULAGE_QUOTATION',
			amount: 650_000,
		});
		expect((await t.api.get(`${base}/${id}`)).body).toMatchObject({
			status: 'ACCEPTED',
			paymentStatus: 'PENDING',
		});
	});

	test('credit terms allow CREDIT payment and credit-accept', async () => {
		const id = await create();
		t.sandbox.admin.issueHaulageQuotation(id, { creditTerms: true });
		const res = await t.api.post(`${base}/${id}/credit-accept`, {});
		expect([res.status, res.body.status]).toEqual([200, 'CREDIT_ACCEPTED']);

		const other = await create();
		t.sandbox.admin.issueHaulageQuotation(other, { creditTerms: true });
		const pay = await t.api.post(`${base}/${other}/payment`, { paymentMethod: 'CREDIT' });
		expect(pay.status).toBe(201);
	});

	test('assignment creates truck tracking and a trip for the partner', async () => {
		const id = await create();
		t.sandbox.admin.issueHaulageQuotation(id);
		expect(() => t.sandbox.admin.assignHaulage(id)).toThrow(/QUOTED/);
		await t.api.post(`${base}/${id}/accept`);
		const { assignmentId, tripId } = t.sandbox.admin.assignHaulage(id);

		const trucks = await t.api.get('/partner-api/haulage/tracking/trucks');
		expect(trucks.body).toEqual([
			expect.objectContaining({ assignmentId, tripId, quotationId: id }),
		]);
		const truck = await t.api.get(`/partner-api/haulage/tracking/trucks/${assignmentId}`);
		expect(truck.body).toMatchObject({
			assignmentId,
			truck: { plateNumber: expect.any(String) },
			lastPosition: { latitude: expect.any(Number) },
		});
		const trip = await t.api.get(`/partner-api/haulage/trips/${tripId}`);
		expect(trip.body).toMatchObject({
			tripId,
			assignmentId,
			origin: 'Apapa port',
			destination: 'Kano',
		});
		expect((await t.api.get(`${base}/${id}`)).body).toMatchObject({
			status: 'ASSIGNED',
			assignmentId,
			tripId,
		});
		expect((await t.api.get('/partner-api/haulage/trips/trip_0')).status).toBe(404);
	});

	test('the operator moves a truck and a trip on; the partner sees each move', async () => {
		const id = await create();
		t.sandbox.admin.issueHaulageQuotation(id);
		await t.api.post(`${base}/${id}/accept`);
		const { assignmentId, tripId } = t.sandbox.admin.assignHaulage(id);
		const truckPath = `/partner-api/haulage/tracking/trucks/${assignmentId}`;
		const before = (await t.api.get(truckPath)).body;

		const stepped = t.sandbox.admin.moveTruck(assignmentId);
		expect(stepped).toMatchObject({ status: 'ASSIGNED' });
		const after = (await t.api.get(truckPath)).body;
		expect(after.lastPosition.latitude).toBeCloseTo(before.lastPosition.latitude + 0.01);
		expect(after.lastPosition.longitude).toBe(before.lastPosition.longitude);

		t.sandbox.admin.moveTruck(assignmentId, {
			latitude: 9.05,
			longitude: 7.49,
			status: 'IN_TRANSIT',
		});
		expect((await t.api.get(truckPath)).body).toMatchObject({
			status: 'IN_TRANSIT',
			lastPosition: { latitude: 9.05, longitude: 7.49 },
		});
		expect(() => t.sandbox.admin.moveTruck(assignmentId, { status: 'FLYING' })).toThrow(
			/status must be one of ASSIGNED, EN_ROUTE_TO_PICKUP, IN_TRANSIT, DELIVERED/,
		);
		expect(() => t.sandbox.admin.moveTruck(assignmentId, { latitude: 91 })).toThrow(/latitude/);
		expect(() => t.sandbox.admin.moveTruck('asg_0')).toThrow(/does not exist/);

		const tripPath = `/partner-api/haulage/trips/${tripId}`;
		expect((await t.api.get(tripPath)).body.status).toBe('SCHEDULED');
		t.sandbox.admin.progressTrip(tripId);
		expect((await t.api.get(tripPath)).body.status).toBe('IN_PROGRESS');
		t.sandbox.admin.progressTrip(tripId, 'COMPLETED');
		expect((await t.api.get(tripPath)).body.status).toBe('COMPLETED');
		expect(() => t.sandbox.admin.progressTrip(tripId)).toThrow(/already COMPLETED/);
		expect(() => t.sandbox.admin.progressTrip(tripId, 'LOST')).toThrow(/status must be one of/);
	});
});
