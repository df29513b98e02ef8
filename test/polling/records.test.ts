import { loggedText } from '../harness';
import { startPollHarness } from '../harness/poll';
import { assignedHaulage, requestHaulage, requestQuotation, useSandbox, watchIds } from './helpers';

// The record watches (IDs listed, one GET each per poll), in n8n-core's PollContext against the
// sandbox, polled as n8n polls an active workflow: quote requests until the operator quotes them,
// HAUL quotations, trips and trucks until they move.

const context = useSandbox();
let sandbox: typeof context.sandbox;
let api: typeof context.api;
beforeAll(() => ({ sandbox, api } = context));

const notFound = (id: string, what: string) => ({
	change: 'notFound',
	recordId: id,
	changedFields: [],
	record: {},
	message: expect.stringMatching(
		new RegExp(`^Could not check ${what} ${id}: Not found in your organization \\(404\\)`),
	),
});

describe('watching GO_BULK quote requests', () => {
	test('quoted once, paid once, an unchanged request never; an unknown ID reported once', async () => {
		const [quoted, waiting] = [await requestQuotation(api), await requestQuotation(api)];
		const trigger = watchIds(
			sandbox,
			'quoteRequest',
			'quoteRequestIds',
			`${quoted}, ${waiting}, qr_404`,
		);

		// The first poll learns the requests, and reports the ID the API does not know.
		expect((await trigger.activate()).items).toEqual([notFound('qr_404', 'quote request')]);
		expect((await trigger.poll()).items).toBeNull();

		sandbox.admin.issueQuoteRequestQuotation(quoted, { amount: 185_000 });
		expect((await trigger.poll()).items).toEqual([
			{
				change: 'changed',
				recordId: quoted,
				changedFields: ['status', 'quotation', 'updatedAt'],
				record: expect.objectContaining({
					quoteRequestId: quoted,
					status: 'QUOTED',
					quotation: expect.objectContaining({ amount: 185_000 }),
				}),
			},
		]);
		expect((await trigger.poll()).items).toBeNull();

		const paid = await api.post(`/partner-api/quote-requests/${quoted}/payment`, {
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(paid.status).toBe(201);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: quoted,
				changedFields: ['paymentStatus', 'paymentReference', 'updatedAt'],
			}),
		]);
		expect((await trigger.poll()).items).toBeNull();
		expect(trigger.executions).toHaveLength(3);

		// Each poll: Quote Request › Get's request per ID, GETs without Idempotency-Key.
		const gets = sandbox.requests({ method: 'GET' });
		expect(gets.map((request) => request.path)).toContain(`/partner-api/quote-requests/${waiting}`);
		expect(gets.every((request) => !('idempotency-key' in request.headers))).toBe(true);
	});

	test('an ID that appears after a 404 is new', async () => {
		const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', 'qr_later');
		expect((await trigger.activate()).items).toEqual([notFound('qr_later', 'quote request')]);
		const id = await requestQuotation(api);
		trigger.setParameters({ watch: 'quoteRequest', quoteRequestIds: `qr_later ${id}` });
		expect((await trigger.restart()).items).toEqual([
			expect.objectContaining({ change: 'new', recordId: id }),
		]);
	});
});

describe('watching HAUL quotations', () => {
	test('quoted, then accepted: one item each', async () => {
		const [quotationId, other] = [await requestHaulage(api), await requestHaulage(api)];
		const trigger = watchIds(sandbox, 'haulageQuotation', 'quotationIds', [quotationId, other]);
		expect((await trigger.activate()).items).toBeNull();
		sandbox.admin.issueHaulageQuotation(quotationId);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: quotationId,
				changedFields: ['status', 'quotation', 'updatedAt'],
				record: expect.objectContaining({ status: 'QUOTED' }),
			}),
		]);
		await api.post(`/partner-api/haulage/quotations/${quotationId}/accept`);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ recordId: quotationId, changedFields: ['status', 'updatedAt'] }),
		]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('watching trips and trucks', () => {
	test('a trip that moves on is changed once per move', async () => {
		const { tripId } = await assignedHaulage(sandbox, api);
		const trigger = watchIds(sandbox, 'trip', 'tripIds', tripId);
		await trigger.activate();
		sandbox.admin.progressTrip(tripId);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: tripId,
				changedFields: ['status', 'updatedAt'],
				record: expect.objectContaining({ status: 'IN_PROGRESS' }),
			}),
		]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test("a truck's every position counts by default; with Field Names status only its status", async () => {
		const { assignmentId } = await assignedHaulage(sandbox, api);
		const every = watchIds(sandbox, 'truckTracking', 'assignmentIds', assignmentId);
		const status = watchIds(sandbox, 'truckTracking', 'assignmentIds', assignmentId, {
			changesThatCount: 'namedFields',
			changeFields: 'status',
		});
		await every.activate();
		await status.activate();

		sandbox.admin.moveTruck(assignmentId);
		expect((await every.poll()).items).toEqual([
			expect.objectContaining({ change: 'changed', changedFields: ['lastPosition'] }),
		]);
		expect((await status.poll()).items).toBeNull();

		sandbox.admin.moveTruck(assignmentId, { status: 'IN_TRANSIT' });
		expect((await every.poll()).items).toEqual([
			expect.objectContaining({ changedFields: ['status', 'lastPosition'] }),
		]);
		expect((await status.poll()).items).toEqual([
			{
				change: 'changed',
				recordId: assignmentId,
				changedFields: ['status'],
				record: expect.objectContaining({ status: 'IN_TRANSIT', lastPosition: expect.any(Object) }),
			},
		]);
		expect((await status.poll()).items).toBeNull();
	});

	test('nested fields count by their dotted names; Field Names left empty stops the poll', async () => {
		const { assignmentId } = await assignedHaulage(sandbox, api);
		const trigger = watchIds(sandbox, 'truckTracking', 'assignmentIds', assignmentId, {
			changesThatCount: 'namedFields',
			changeFields: 'lastPosition.latitude, status',
		});
		await trigger.activate();
		sandbox.admin.moveTruck(assignmentId, { longitude: 3.5 });
		expect((await trigger.poll()).items).toBeNull();
		sandbox.admin.moveTruck(assignmentId);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ changedFields: ['lastPosition.latitude'] }),
		]);

		const empty = watchIds(sandbox, 'trip', 'tripIds', 'trip_1', {
			changesThatCount: 'namedFields',
			changeFields: ' , ',
		});
		expect((await empty.activate()).error?.message).toBe(
			'Field Names (changeFields) names no field, got " , "',
		);
	});
});

describe('IDs that fail', () => {
	test('an ID whose answer trickles and one that inflates past the bound: the third still comes, within one Timeout', async () => {
		const [trickling, bomb, quoted] = [
			await requestQuotation(api),
			await requestQuotation(api),
			await requestQuotation(api),
		];
		const trigger = watchIds(
			sandbox,
			'quoteRequest',
			'quoteRequestIds',
			[trickling, bomb, quoted],
			// Long enough for the bomb to reach the size bound first on a busy machine.
			{ requestOptions: { timeout: 5000 } },
		);
		await trigger.activate();
		for (const id of [trickling, bomb, quoted]) sandbox.admin.issueQuoteRequestQuotation(id);
		sandbox.admin.setFaults({
			failNext: [
				{ kind: 'trickle', intervalMs: 100, path: `/partner-api/quote-requests/${trickling}` },
				{ kind: 'gzipBomb', path: `/partner-api/quote-requests/${bomb}` },
			],
		});
		const started = Date.now();
		const polled = await trigger.poll();
		// One Timeout, not Timeout × (Connection Retries + 1): the next poll is the retry.
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(polled.items).toEqual([
			expect.objectContaining({ change: 'changed', recordId: quoted }),
		]);
		const logged = (await loggedText()).split('\n').filter((line) => line.includes(trickling));
		expect(logged).toHaveLength(1);
		expect(logged[0]).toContain('2 of 3 quote requests could not be read');
		expect(logged[0]).toContain(
			`${trickling} (Could not check quote request ${trickling}: The API stopped sending partway`,
		);
		expect(logged[0]).toContain(
			`${bomb} (Could not check quote request ${bomb}: The API's answer grew past the 100 MiB`,
		);
		expect(sandbox.requests({ path: `/partner-api/quote-requests/${trickling}` })).toHaveLength(2);

		// The next poll, on time, reads them again: their changes come now.
		const next = await trigger.poll();
		expect(next.items?.map((item) => item.recordId).sort()).toEqual([trickling, bomb].sort());
		expect(trigger.failures).toHaveLength(0);
	});

	test('every ID hanging: the poll fails once, naming each, and the memory stays', async () => {
		const [first, second] = [await requestQuotation(api), await requestQuotation(api)];
		const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', [first, second], {
			requestOptions: { timeout: 500 },
		});
		await trigger.activate();
		const memory = trigger.liveState();
		sandbox.admin.issueQuoteRequestQuotation(first);
		sandbox.admin.setFaults({
			failNext: [{ kind: 'noHeaders', path: /^\/partner-api\/quote-requests\//, times: 2 }],
		});
		const failed = await trigger.poll();
		expect(failed.items).toBeNull();
		expect(failed.error?.message).toMatch(
			/^Could not check quote request qr_\w+: No answer from the API within 0\.5 s \(timeout\)/,
		);
		expect(failed.error?.description).toMatch(
			new RegExp(
				`2 of 2 IDs could not be read; nothing is lost.* They are (${first}|${second}) \\(.*; (${first}|${second}) \\(`,
			),
		);
		expect(trigger.liveState()).toEqual(memory);
	});

	test("one ID's 500 leaves its change for the next poll; the others' changes come now", async () => {
		const [first, second] = [await requestQuotation(api), await requestQuotation(api)];
		const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', [first, second]);
		await trigger.activate();
		sandbox.admin.issueQuoteRequestQuotation(first);
		sandbox.admin.issueQuoteRequestQuotation(second);
		sandbox.admin.setFaults({
			failNext: [{ status: 500, method: 'GET', path: `/partner-api/quote-requests/${first}` }],
		});
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ change: 'changed', recordId: second }),
		]);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ change: 'changed', recordId: first }),
		]);
		expect((await trigger.poll()).items).toBeNull();
		expect(trigger.failures).toHaveLength(0);
	});

	test('a poll whose every ID fails emits nothing, fails, and the memory stays', async () => {
		const [first, second] = [await requestQuotation(api), await requestQuotation(api)];
		const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', [first, second]);
		await trigger.activate();
		const memory = trigger.liveState();
		sandbox.admin.issueQuoteRequestQuotation(first);
		sandbox.admin.setFaults({
			failNext: [
				{ status: 500, method: 'GET', path: /^\/partner-api\/quote-requests\//, times: 2 },
			],
		});
		const failed = await trigger.poll();
		expect(failed.items).toBeNull();
		expect(failed.error?.message).toMatch(
			/^Could not check quote request qr_\d+: The Partner Logistics API failed \(500\)/,
		);
		expect(failed.error?.description).toMatch(/2 of 2 IDs could not be read; nothing is lost/);
		expect(trigger.liveState()).toEqual(memory);
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ change: 'changed', recordId: first }),
		]);
	});

	test('a refused key stops the poll at once, never naming the key', async () => {
		const ids = await Promise.all(Array.from({ length: 30 }, () => requestQuotation(api)));
		const apiKey = `sbx_a_full_${'0'.repeat(32)}`;
		const trigger = startPollHarness({
			parameters: { watch: 'quoteRequest', quoteRequestIds: ids },
			credentials: { baseUrl: sandbox.url, apiKey },
		});
		const before = sandbox.requests().length;
		const result = await trigger.activate();
		expect(result.error?.message).toMatch(/The API key was refused \(401\)/);
		expect(JSON.stringify(result.error)).not.toContain(apiKey);
		// At most the first Concurrency (20) requests left before the stop.
		expect(sandbox.requests().length - before).toBeLessThanOrEqual(20);
	});
});

describe('IDs that could leave their path', () => {
	test.each(['..', '.', ' .. '])('%p in the list stops the poll before any request', async (id) => {
		const known = await requestQuotation(api);
		sandbox.clearLog();
		const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', [known, id]);
		const result = await trigger.activate();
		expect(result.error?.message).toBe(
			`Quote Request IDs (quoteRequestIds): ID 2 of the list cannot be "." or "..": the request would reach another endpoint of the API, got "${id.trim()}"`,
		);
		expect(result.error?.description).toMatch(/^Nothing was sent to the API/);
		expect(sandbox.requests()).toEqual([]);
	});

	test('a/b, x?y=1 and #f each reach their own path, encoded, and are reported not found', async () => {
		sandbox.clearLog();
		const trigger = watchIds(sandbox, 'payment', 'references', ['a/b', 'x?y=1', '#f']);
		const result = await trigger.activate();
		expect(result.items?.map((item) => [item.change, item.recordId])).toEqual([
			['notFound', 'a/b'],
			['notFound', 'x?y=1'],
			['notFound', '#f'],
		]);
		expect(sandbox.requests().map((request) => [request.path, request.status])).toEqual(
			expect.arrayContaining([
				['/partner-api/payments/a%2Fb', 404],
				['/partner-api/payments/x%3Fy%3D1', 404],
				['/partner-api/payments/%23f', 404],
			]),
		);
		expect(sandbox.requests()).toHaveLength(3);
	});
});

describe('many IDs, one poll', () => {
	test('500 IDs through the pipeline under a rate limit: every change once, memory bounded', async () => {
		const ids: string[] = [];
		for (let index = 0; index < 500; index++) ids.push(await requestQuotation(api, `Lot ${index}`));
		sandbox.admin.setRateLimit(200);
		const trigger = watchIds(sandbox, 'quoteRequest', 'quoteRequestIds', ids.join('\n'));
		expect(await trigger.activate()).toEqual({ items: null });

		const quoted = [ids[3], ids[250], ids[499]];
		for (const id of quoted) sandbox.admin.issueQuoteRequestQuotation(id);
		sandbox.clearLog();
		const started = Date.now();
		const { items } = await trigger.poll();
		const seconds = (Date.now() - started) / 1000;
		const requests = sandbox.requests();
		expect(items?.map((item) => item.recordId).sort()).toEqual([...quoted].sort());
		expect((await trigger.poll()).items).toBeNull();

		// Every ID read once (a 429 is resent with its ID), paced under the limit.
		const accepted = requests.filter((request) => request.status === 200);
		expect(requests.every((request) => [200, 429].includes(request.status))).toBe(true);
		expect(new Set(accepted.map((request) => request.path)).size).toBe(500);
		expect(accepted).toHaveLength(500);
		expect(seconds).toBeGreaterThan(2);
		// The memory: a digest per record, not the records.
		const memory = trigger.savedState().memory as { records: Array<Record<string, unknown>> };
		expect(memory.records).toHaveLength(500);
		expect(memory.records.every((entry) => !('record' in entry))).toBe(true);
		expect(JSON.stringify(memory).length).toBeLessThan(500 * 600);
	}, 60_000);

	test('more IDs than Max Records Remembered stop the poll before any request', async () => {
		sandbox.clearLog();
		const trigger = watchIds(sandbox, 'trip', 'tripIds', 'trip_1 trip_2 trip_3', {
			options: { maxRecords: 2 },
		});
		expect((await trigger.activate()).error?.message).toBe(
			'Trip IDs lists 3 trips, more than Options › Max Records Remembered (2)',
		);
		expect(sandbox.requests()).toEqual([]);
	});
});
