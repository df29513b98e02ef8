import { apiClient } from './apiClient';
import { type Sandbox, startSandbox } from './index';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };

describe('API key (401)', () => {
	test('a missing key is 401 MISSING_API_KEY', async () => {
		const res = await apiClient(sandbox, null).get('/partner-api/hubs');
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('MISSING_API_KEY');
	});

	test('an unknown key is 401 INVALID_API_KEY, also on POST', async () => {
		const api = apiClient(sandbox, 'sbx_a_full_not-a-real-key');
		expect((await api.get('/partner-api/hubs')).status).toBe(401);
		const post = await api.post('/partner-api/booking-quotes', route);
		expect(post.status).toBe(401);
		expect(post.body.code).toBe('INVALID_API_KEY');
	});

	test('the log keeps the raw API key header (lower-cased name)', async () => {
		sandbox.clearLog();
		await apiClient(sandbox).get('/partner-api/hubs');
		const [entry] = sandbox.requests({ path: '/partner-api/hubs' });
		expect(entry.headers['x-svc-api-key']).toBe(sandbox.keys.full);
		expect(entry).toMatchObject({ method: 'GET', status: 200, query: {} });
	});
});

describe('capabilities (403 naming the capability)', () => {
	test('readOnly may GET but not POST', async () => {
		const api = apiClient(sandbox, sandbox.keys.readOnly);
		expect((await api.get('/partner-api/hubs')).status).toBe(200);
		const res = await api.post('/partner-api/booking-quotes', route);
		expect(res.status).toBe(403);
		expect(res.body).toMatchObject({
			code: 'MISSING_CAPABILITY',
			requiredCapability: 'partner:write',
		});
		expect(res.body.message).toContain('partner:write');
	});

	test('readOnly reads support cases (support:read) but may not create them', async () => {
		const api = apiClient(sandbox, sandbox.keys.readOnly);
		expect((await api.get('/partner-api/support-cases')).status).toBe(200);
		const res = await api.post('/partner-api/support-cases', { title: 'x' });
		expect(res.status).toBe(403);
		expect(res.body.message).toContain('support:create');
	});

	test('noSupport gets 403 on every support case route, naming support:create or support:read', async () => {
		const full = apiClient(sandbox);
		const created = await full.post('/partner-api/support-cases', { title: 'Parcel damaged' });
		const caseId = created.body.caseId;
		const api = apiClient(sandbox, sandbox.keys.noSupport);
		const calls: Array<
			[Promise<{ status: number; body: { message: string; requiredCapability: string } }>, string]
		> = [
			[api.post('/partner-api/support-cases', { title: 'x' }), 'support:create'],
			[api.get('/partner-api/support-cases'), 'support:read'],
			[api.get(`/partner-api/support-cases/${caseId}`), 'support:read'],
			[
				api.post(`/partner-api/support-cases/${caseId}/comments`, { message: 'hi' }),
				'support:create',
			],
			[api.post(`/partner-api/support-cases/${caseId}/close`, { note: 'x' }), 'support:create'],
			[api.post(`/partner-api/support-cases/${caseId}/reopen`, { reason: 'x' }), 'support:create'],
		];
		for (const [call, capability] of calls) {
			const res = await call;
			expect(res.status).toBe(403);
			expect(res.body.requiredCapability).toBe(capability);
			expect(res.body.message).toContain(capability);
		}
		// The same key does everything else.
		expect((await api.post('/partner-api/booking-quotes', route)).status).toBe(201);
	});
});

describe('routing', () => {
	test('hubs lists active hubs only', async () => {
		const res = await apiClient(sandbox).get('/partner-api/hubs');
		expect(res.status).toBe(200);
		const ids = res.body.map((h: { id: string }) => h.id);
		expect(ids).toEqual(sandbox.hubs.active);
		expect(ids.length).toBeGreaterThanOrEqual(3);
		expect(ids).not.toContain(sandbox.hubs.inactive[0]);
		expect(res.body[0]).toMatchObject({
			name: expect.any(String),
			latitude: expect.any(Number),
			active: true,
		});
	});

	test('unknown paths are 404 JSON; a known path with another method is 405', async () => {
		const api = apiClient(sandbox);
		const unknown = await api.get('/partner-api/nothing-here');
		expect(unknown.status).toBe(404);
		expect(unknown.body.code).toBe('NOT_FOUND');
		expect(unknown.headers.get('content-type')).toContain('application/json');
		const outsideBase = await fetch(`${sandbox.origin}/partner-api/hubs`);
		expect(outsideBase.status).toBe(404);
		const wrongMethod = await api.post('/partner-api/hubs', {});
		expect(wrongMethod.status).toBe(405);
	});
});

describe('organization isolation (404, never 403)', () => {
	test("org B cannot see or act on any of org A's resources", async () => {
		const a = apiClient(sandbox);
		const b = apiClient(sandbox, sandbox.keys.otherOrg);

		const quote = (await a.post('/partner-api/booking-quotes', route)).body;
		const booking = (await a.post('/partner-api/bookings', { ...route, quoteId: quote.quoteId }))
			.body;
		const payment = (
			await a.post(`/partner-api/bookings/${booking.bookingId}/payment`, {
				paymentMethod: 'SAVED_CARD',
				paymentMethodId: sandbox.savedCards.enabled,
			})
		).body;
		const quoteRequest = (
			await a.post('/partner-api/quote-requests', { itemDescription: 'pallets' })
		).body;
		const haul = (await a.post('/partner-api/haulage/quotations', { origin: 'Apapa' })).body;
		sandbox.admin.issueHaulageQuotation(haul.quotationId);
		await a.post(`/partner-api/haulage/quotations/${haul.quotationId}/accept`);
		const { assignmentId, tripId } = sandbox.admin.assignHaulage(haul.quotationId);
		const supportCase = (await a.post('/partner-api/support-cases', { title: 'late' })).body;

		const notFound = [
			b.post('/partner-api/bookings', { ...route, quoteId: quote.quoteId }),
			b.post(`/partner-api/bookings/${booking.bookingId}/payment`, {
				paymentMethod: 'SAVED_CARD',
				paymentMethodId: 'pm_card_b_api',
			}),
			b.get(`/partner-api/payments/${payment.paymentReference}`),
			b.get(`/partner-api/quote-requests/${quoteRequest.quoteRequestId}`),
			b.get(`/partner-api/haulage/quotations/${haul.quotationId}`),
			b.post(`/partner-api/haulage/quotations/${haul.quotationId}/decline`),
			b.get(`/partner-api/haulage/tracking/trucks/${assignmentId}`),
			b.get(`/partner-api/haulage/trips/${tripId}`),
			b.get(`/partner-api/support-cases/${supportCase.caseId}`),
			b.post(`/partner-api/support-cases/${supportCase.caseId}/comments`, { message: 'hi' }),
		];
		for (const res of await Promise.all(notFound)) {
			expect(res.status).toBe(404);
			expect(res.body.code).toBe('NOT_FOUND');
		}
		// Same answer as for an id that never existed: nothing reveals the other org's record.
		const missing = await b.get('/partner-api/support-cases/case_424242');
		const foreign = await b.get(`/partner-api/support-cases/${supportCase.caseId}`);
		expect(foreign.body.message.replace(supportCase.caseId, 'ID')).toBe(
			missing.body.message.replace('case_424242', 'ID'),
		);

		expect((await b.get('/partner-api/haulage/tracking/trucks')).body).toEqual([]);
		expect((await b.get('/partner-api/support-cases')).body).toEqual([]);
		// A's card id is not a saved card of org B.
		const bQuote = (await b.post('/partner-api/booking-quotes', route)).body;
		const bBooking = (await b.post('/partner-api/bookings', { ...route, quoteId: bQuote.quoteId }))
			.body;
		const card = await b.post(`/partner-api/bookings/${bBooking.bookingId}/payment`, {
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(card.status).toBe(400);
		expect(card.body).toMatchObject({ code: 'PAYMENT_METHOD_NOT_FOUND', field: 'paymentMethodId' });
	});
});
