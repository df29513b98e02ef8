import { type ApiClient, apiClient, type ApiResponse } from './apiClient';
import { INTERNAL_NOTE_MARKER, type Sandbox, startSandbox } from './index';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

let sandbox: Sandbox;
let api: ApiClient;
/** Every response of this file, to prove hidden data never leaves the sandbox. */
const seen: ApiResponse[] = [];

function recording(client: ApiClient): ApiClient {
	return {
		get: async (...args) => {
			const res = await client.get(...args);
			seen.push(res);
			return res;
		},
		post: async (...args) => {
			const res = await client.post(...args);
			seen.push(res);
			return res;
		},
	};
}

beforeAll(async () => {
	sandbox = await startSandbox();
	api = recording(apiClient(sandbox));
});
afterAll(() => sandbox.close());

const cases = '/partner-api/support-cases';

async function createCase(body: Record<string, unknown> = {}) {
	const res = await api.post(cases, { title: 'Parcel arrived damaged', ...body });
	expect(res.status).toBe(201);
	return res.body;
}

describe('support cases', () => {
	test('create: any category/priority string, metadata object, reporter-visible timeline', async () => {
		const c = await createCase({
			summary: 'The box was crushed',
			category: 'DELIVERY_ISSUE',
			priority: 'MEDIUM',
			metadata: { orderId: 'o-1' },
		});
		expect(c).toMatchObject({
			caseId: expect.stringMatching(/^case_/),
			status: 'OPEN',
			category: 'DELIVERY_ISSUE',
			priority: 'MEDIUM',
			metadata: { orderId: 'o-1' },
		});
		expect(c.timeline.map((e: { type: string }) => e.type)).toEqual(['CREATED', 'COMMENT']);
		const other = await createCase({ category: 'BILLING_QUESTION', priority: 'URGENT' });
		expect(other).toMatchObject({ category: 'BILLING_QUESTION', priority: 'URGENT' });
	});

	test.each([
		['title is required', {}, 'title'],
		['metadata must be an object', { title: 't', metadata: ['x'] }, 'metadata'],
		[
			'relatedResourceId needs a type',
			{ title: 't', relatedResourceId: 'bk_1' },
			'relatedResourceType',
		],
		[
			'unknown relatedResourceType',
			{ title: 't', relatedResourceType: 'INVOICE', relatedResourceId: 'x' },
			'relatedResourceType',
		],
	])('400: %s', async (_name, body, field) => {
		const res = await api.post(cases, body);
		expect([res.status, res.body.field]).toEqual([400, field]);
	});

	test('relatedResource BOOKING must be a booking of the organization', async () => {
		const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
		const quote = (await api.post('/partner-api/booking-quotes', route)).body;
		const booking = (await api.post('/partner-api/bookings', { ...route, quoteId: quote.quoteId }))
			.body;
		const ok = await createCase({
			relatedResourceType: 'BOOKING',
			relatedResourceId: booking.bookingId,
		});
		expect(ok.relatedResourceId).toBe(booking.bookingId);

		const b = apiClient(sandbox, sandbox.keys.otherOrg);
		const foreign = await b.post(cases, {
			title: 'not mine',
			relatedResourceType: 'BOOKING',
			relatedResourceId: booking.bookingId,
		});
		expect([foreign.status, foreign.body.code]).toEqual([404, 'RELATED_RESOURCE_NOT_FOUND']);
	});

	test('comment, close, reopen: OPEN <-> CLOSED with 409 on the wrong state', async () => {
		const { caseId } = await createCase();
		const comment = await api.post(`${cases}/${caseId}/comments`, {
			message: 'Photos sent via portal',
		});
		expect(comment.status).toBe(201);
		expect(comment.body).toMatchObject({
			caseId,
			commentId: expect.any(String),
			author: 'PARTNER',
		});
		const empty = await api.post(`${cases}/${caseId}/comments`, { message: '' });
		expect([empty.status, empty.body.field]).toEqual([400, 'message']);

		expect((await api.post(`${cases}/${caseId}/reopen`, { reason: 'x' })).body.code).toBe(
			'CASE_NOT_CLOSED',
		);
		const closed = await api.post(`${cases}/${caseId}/close`, { note: 'Refund received' });
		expect([closed.status, closed.body.status]).toEqual([200, 'CLOSED']);
		const closeAgain = await api.post(`${cases}/${caseId}/close`, { note: 'again' });
		expect([closeAgain.status, closeAgain.body.code]).toEqual([409, 'CASE_ALREADY_CLOSED']);
		const commentClosed = await api.post(`${cases}/${caseId}/comments`, { message: 'hello?' });
		expect([commentClosed.status, commentClosed.body.code]).toEqual([409, 'CASE_CLOSED']);
		const reopened = await api.post(`${cases}/${caseId}/reopen`, { reason: 'Refund bounced' });
		expect([reopened.status, reopened.body.status]).toEqual([200, 'OPEN']);

		const detail = await api.get(`${cases}/${caseId}`);
		expect(detail.body.timeline.map((e: { type: string }) => e.type)).toEqual([
			'CREATED',
			'COMMENT',
			'COMMENT',
			'CLOSED',
			'REOPENED',
		]);
	});

	test('comment, close and reopen need an Idempotency-Key', async () => {
		const { caseId } = await createCase();
		for (const action of ['comments', 'close', 'reopen']) {
			const res = await api.post(
				`${cases}/${caseId}/${action}`,
				{ message: 'x' },
				{ idempotencyKey: null },
			);
			expect([res.status, res.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
		}
	});

	test('list: array of cases, newest first, status filter, limit 1..100', async () => {
		const { caseId } = await createCase({ title: 'newest' });
		const list = await api.get(cases);
		expect(Array.isArray(list.body)).toBe(true);
		expect(list.body[0]).toMatchObject({ caseId, title: 'newest' });
		expect(list.body[0].timeline).toBeUndefined();

		await api.post(`${cases}/${caseId}/close`, {});
		const open = await api.get(cases, { status: 'OPEN' });
		expect(open.body.every((c: { status: string }) => c.status === 'OPEN')).toBe(true);
		expect(open.body.some((c: { caseId: string }) => c.caseId === caseId)).toBe(false);
		expect((await api.get(cases, { status: 'CLOSED' })).body[0].caseId).toBe(caseId);

		expect((await api.get(cases, { limit: '2' })).body).toHaveLength(2);
		for (const limit of ['0', '101', 'abc', '1.5']) {
			const res = await api.get(cases, { limit });
			expect([res.status, res.body.field]).toEqual([400, 'limit']);
		}
	});

	test('the internal note exists in storage but never in a partner response', () => {
		const stored = sandbox.admin.state().A.supportCases[0];
		expect(JSON.stringify(stored)).toContain(INTERNAL_NOTE_MARKER);
		expect(seen.length).toBeGreaterThan(20);
		for (const res of seen) expect(res.text).not.toContain(INTERNAL_NOTE_MARKER);
		expect(seen.some((r) => r.text.includes('staffMetadata') || r.text.includes('INTERNAL'))).toBe(
			false,
		);
	});
});

describe("support case list in 'cursor' shape", () => {
	test('items + nextCursor, following the cursor until null', async () => {
		const cursorBox = await startSandbox({ listShape: 'cursor' });
		try {
			const c = apiClient(cursorBox);
			for (let i = 1; i <= 5; i++) await c.post(cases, { title: `case ${i}` });
			const titles: string[] = [];
			let cursor: string | null = null;
			let pages = 0;
			do {
				const query: Record<string, string> = cursor ? { limit: '2', cursor } : { limit: '2' };
				const page = await c.get(cases, query);
				expect(page.status).toBe(200);
				expect(Object.keys(page.body).sort()).toEqual(['items', 'nextCursor']);
				titles.push(...page.body.items.map((x: { title: string }) => x.title));
				cursor = page.body.nextCursor;
				pages++;
			} while (cursor);
			expect(pages).toBe(3);
			expect(titles).toEqual(['case 5', 'case 4', 'case 3', 'case 2', 'case 1']);
			const bad = await c.get(cases, { cursor: 'garbage' });
			expect([bad.status, bad.body.field]).toEqual([400, 'cursor']);
		} finally {
			await cursorBox.close();
		}
	});
});
