// The failNext rules whose answer is written over time, each over real HTTP: a body that trickles
// forever, no headers at all, a gzip bomb, a big honest list. Raw node:http where fetch would hide
// what is tested (it inflates gzip and reads whole bodies).
import { type ClientRequest, get, type IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';

import { adminFetch, apiClient } from './apiClient';
import { startSandbox } from './index';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';
import { gzipBombBytes } from './streamingAnswers';

const t = sandboxPerFile();

const HUBS = '/partner-api/hubs';
const CASES = '/partner-api/support-cases';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A GET with the full key, no agent (one socket per request), nothing decoded. */
function rawGet(path: string): { request: ClientRequest; response: Promise<IncomingMessage> } {
	let request!: ClientRequest;
	const response = new Promise<IncomingMessage>((resolve, reject) => {
		request = get(`${t.sandbox.url}${path}`, {
			agent: false,
			headers: { 'X-SVC-API-Key': t.sandbox.keys.full },
		});
		request.on('response', resolve).on('error', reject);
	});
	response.catch(() => undefined);
	return { request, response };
}

/** Every byte of a stream with when it came, until it ends or `ms` passes. */
async function bytesWithin(stream: IncomingMessage, ms: number) {
	const arrivals: Array<{ at: number; text: string }> = [];
	stream.on('data', (chunk: Buffer) => arrivals.push({ at: Date.now(), text: chunk.toString() }));
	await sleep(ms);
	return arrivals;
}

/** Counts a stream's bytes and keeps its first and last few, never the whole of it. */
async function measure(stream: NodeJS.ReadableStream) {
	let size = 0;
	let head = '';
	let tail = '';
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (head.length < 32) head += chunk.subarray(0, 32).toString();
		tail = (tail + chunk.subarray(-32).toString()).slice(-32);
	}
	return { size, head: head.slice(0, 32), tail };
}

const logOf = (path: string) =>
	t.sandbox.requests({ path }).map((e) => ({
		status: e.status,
		fault: e.fault,
		clientClosed: e.clientClosed,
		bytesSent: e.bytesSent,
	}));

describe('trickle', () => {
	test('headers at once, then one byte per interval, and nothing more once the client leaves', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'trickle', intervalMs: 50, path: HUBS }] });
		const started = Date.now();
		const { request, response } = rawGet(HUBS);
		const res = await response;
		expect(Date.now() - started).toBeLessThan(200);
		expect([res.statusCode, res.headers['content-type']]).toEqual([
			200,
			'application/json; charset=utf-8',
		]);
		expect(res.headers['content-length']).toBeUndefined();

		const arrivals = await bytesWithin(res, 420);
		const text = arrivals.map((a) => a.text).join('');
		expect(text.length).toBeGreaterThanOrEqual(4);
		expect(text.length).toBeLessThanOrEqual(10);
		expect(text).toBe('[{"id":"trickle"},'.slice(0, text.length));
		// Slowly: the bytes are spread over the time, not sent in one burst.
		expect(arrivals[arrivals.length - 1].at - arrivals[0].at).toBeGreaterThanOrEqual(150);

		request.destroy();
		await sleep(100);
		const [entry] = t.sandbox.requests({ path: HUBS });
		expect(entry).toMatchObject({ status: 200, fault: 'trickle', clientClosed: true });
		const sentWhenLeft = entry.bytesSent;
		expect(sentWhenLeft).toBeGreaterThanOrEqual(text.length);
		// The sandbox stopped writing: no timer keeps going for a client that left.
		await sleep(250);
		expect(t.sandbox.requests({ path: HUBS })[0].bytesSent).toBe(sentWhenLeft);
		expect((await t.api.get(HUBS)).status).toBe(200);
	});

	test('a POST gets the status asked for, before auth; nothing is committed', async () => {
		t.sandbox.admin.setFaults({
			failNext: [{ kind: 'trickle', status: 201, intervalMs: 20, method: 'POST' }],
		});
		const controller = new AbortController();
		const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
		const res = await fetch(`${t.sandbox.url}/partner-api/booking-quotes`, {
			method: 'POST',
			body: JSON.stringify(route),
			signal: controller.signal,
		});
		expect(res.status).toBe(201);
		const reader = res.body!.getReader();
		expect(new TextDecoder().decode((await reader.read()).value)).toBe('[');
		controller.abort();
		expect(t.sandbox.admin.state().A.counts.quotes).toBe(0);
		expect((await t.api.post('/partner-api/booking-quotes', route)).status).toBe(201);
	});

	test('by default one byte a second', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'trickle' }] });
		const { request, response } = rawGet(HUBS);
		const arrivals = await bytesWithin(await response, 1300);
		request.destroy();
		expect(arrivals.map((a) => a.text).join('')).toBe('[');
	});
});

describe('noHeaders', () => {
	test('no status line, no headers, until the client leaves; the next request is answered', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'noHeaders', path: HUBS }] });
		const { request, response } = rawGet(HUBS);
		const answered = await Promise.race([response.then(() => true), sleep(400).then(() => false)]);
		expect(answered).toBe(false);
		expect(logOf(HUBS)).toEqual([
			{ status: 0, fault: 'noHeaders', clientClosed: undefined, bytesSent: 0 },
		]);

		request.destroy();
		await sleep(100);
		expect(logOf(HUBS)[0]).toMatchObject({ status: 0, fault: 'noHeaders', clientClosed: true });
		expect((await t.api.get(HUBS)).status).toBe(200);
	});
});

test('closing the sandbox ends held and trickling answers at once', async () => {
	const sandbox = await startSandbox();
	sandbox.admin.setFaults({
		failNext: [
			{ kind: 'trickle', intervalMs: 10 },
			{ kind: 'noHeaders', path: HUBS },
		],
	});
	const open = (path: string) =>
		new Promise<{ res?: IncomingMessage; error?: string }>((resolve) => {
			get(`${sandbox.url}${path}`, { agent: false }, (res) => resolve({ res })).on('error', (e) =>
				resolve({ error: e.message }),
			);
		});
	const trickling = await open(CASES);
	const held = open(HUBS);
	await sleep(100);
	const started = Date.now();
	await sandbox.close();
	expect(Date.now() - started).toBeLessThan(500);
	expect(await held).toEqual({ error: 'socket hang up' });
	await expect(measure(trickling.res!)).rejects.toThrow(/aborted/);
});

describe('gzipBomb', () => {
	test('about 1 MB of gzip that inflates to 1 GiB of JSON text by default', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'gzipBomb', path: HUBS }] });
		const res = await rawGet(HUBS).response;
		expect(res.statusCode).toBe(200);
		expect(res.headers['content-encoding']).toBe('gzip');
		expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
		const compressed = Number(res.headers['content-length']);
		expect(compressed).toBeGreaterThan(900_000);
		expect(compressed).toBeLessThan(1_500_000);

		// Inflated as it streams, counted, never held: exactly the configured size.
		const inflated = await measure(res.pipe(createGunzip()));
		expect(inflated).toEqual({
			size: 2 ** 30,
			head: `[{"id":"x"},${' '.repeat(20)}`,
			tail: `${' '.repeat(21)}{"id":"x"}]`,
		});
		expect(logOf(HUBS)).toEqual([
			{ status: 200, fault: 'gzipBomb', clientClosed: undefined, bytesSent: compressed },
		]);
	});

	test('a configured size is exact valid JSON; the compressed bytes are built once', async () => {
		const size = 3 * 1024 * 1024 + 7;
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'gzipBomb', inflatedBytes: size, times: 2 }] });
		const first = await fetch(`${t.sandbox.url}${HUBS}`);
		// fetch inflates gzip itself: what a client that trusts the header would hold.
		const text = await first.text();
		expect(text.length).toBe(size);
		// A record every 64 KiB (47 fit before the last 64 KiB of spaces), then the last one.
		expect(JSON.parse(text)).toEqual(Array(48).fill({ id: 'x' }));

		expect(gzipBombBytes(size)).toBe(gzipBombBytes(size));
		const again = await rawGet(HUBS).response;
		expect(Number(again.headers['content-length'])).toBe((await gzipBombBytes(size)).length);
		again.resume();
	});
});

describe('bigList', () => {
	test('50,000 hubs of about 1 kB by default: a 50 MB list that parses whole', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'bigList', path: HUBS }] });
		const res = await fetch(`${t.sandbox.url}${HUBS}`, {
			headers: { 'X-SVC-API-Key': t.sandbox.keys.full },
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-encoding')).toBeNull();
		const text = await res.text();
		expect(text.length).toBeGreaterThan(50_000_000);
		expect(text.length).toBeLessThan(50_100_000);
		const hubs = JSON.parse(text);
		expect(hubs).toHaveLength(50_000);
		expect(hubs[0]).toEqual({
			id: 'hub_big_0000001',
			name: 'Big List Hub 0000001',
			city: 'Lagos',
			address: expect.stringMatching(/^Sandbox big list padding/),
			latitude: 6.5244,
			longitude: 3.3792,
			openingHours: 'Mon-Sat 08:00-20:00',
			active: true,
		});
		expect(JSON.stringify(hubs[49_999]).length).toBe(1000);
		expect(hubs[49_999].id).toBe('hub_big_0050000');
		expect(logOf(HUBS)).toEqual([
			{ status: 200, fault: 'bigList', clientClosed: undefined, bytesSent: text.length },
		]);
		expect((await t.api.get(HUBS)).body).toHaveLength(4);
	});

	test('gzip, support case shape; after auth and capability; GETs only', async () => {
		t.sandbox.admin.setFaults({
			failNext: [{ kind: 'bigList', records: 2000, recordBytes: 600, gzip: true, path: CASES }],
		});
		expect((await apiClient(t.sandbox, null).get(CASES)).status).toBe(401);
		expect((await apiClient(t.sandbox, t.sandbox.keys.noSupport).get(CASES)).status).toBe(403);
		const created = await t.api.post(CASES, { title: 'A real case' });
		expect(created.status).toBe(201);

		const raw = await rawGet(CASES).response;
		expect(raw.headers['content-encoding']).toBe('gzip');
		const cases = JSON.parse(
			await new Promise<string>((resolve, reject) => {
				const parts: Buffer[] = [];
				raw
					.pipe(createGunzip())
					.on('data', (c: Buffer) => parts.push(c))
					.on('end', () => resolve(Buffer.concat(parts).toString()))
					.on('error', reject);
			}),
		);
		expect(cases).toHaveLength(2000);
		expect(cases[1999]).toMatchObject({ caseId: 'case_big_0002000', status: 'OPEN' });
		expect(Object.keys(cases[0])).toEqual(
			Object.keys(created.body).filter((k) => k !== 'timeline'),
		);
		const [entry] = t.sandbox.requests({ path: CASES, method: 'GET' }).slice(-1);
		expect(entry.fault).toBe('bigList');
		expect(entry.bytesSent).toBeLessThan(JSON.stringify(cases).length / 10);
		expect((await t.api.get(CASES)).body).toHaveLength(1);
	});

	test('a support case list in the cursor shape when the sandbox lists cursors', async () => {
		const sandbox = await startSandbox({ listShape: 'cursor' });
		try {
			sandbox.admin.setFaults({ failNext: [{ kind: 'bigList', records: 3, path: CASES }] });
			const res = await apiClient(sandbox).get(CASES);
			expect(res.body).toEqual({ items: expect.any(Array), nextCursor: null });
			expect(res.body.items.map((c: { caseId: string }) => c.caseId)).toEqual([
				'case_big_0000001',
				'case_big_0000002',
				'case_big_0000003',
			]);
		} finally {
			await sandbox.close();
		}
	});

	test('a client that leaves mid-list stops the stream', async () => {
		t.sandbox.admin.setFaults({ failNext: [{ kind: 'bigList', records: 200_000 }] });
		const { request, response } = rawGet(HUBS);
		const res = await response;
		await new Promise((resolve) => res.once('data', resolve));
		request.destroy();
		await sleep(200);
		const [entry] = t.sandbox.requests({ path: HUBS });
		expect(entry).toMatchObject({ fault: 'bigList', clientClosed: true });
		expect(entry.bytesSent).toBeLessThan(200_000_000);
	});
});

describe('streaming rules over HTTP', () => {
	test('set through /__admin/faults and listed while pending', async () => {
		const plan = {
			failNext: [
				{ kind: 'trickle', intervalMs: 250, status: 200, method: 'GET', path: HUBS },
				{ kind: 'noHeaders', method: 'POST', path: '/partner-api/bookings' },
				{ kind: 'gzipBomb', inflatedBytes: 1048576, path: String(/^\/partner-api\/hubs$/) },
				{ kind: 'bigList', records: 50000, recordBytes: 1000, gzip: true, path: CASES },
			],
		};
		expect((await adminFetch(t.sandbox, 'POST', '/__admin/faults', plan)).status).toBe(200);
		const { failNext } = (await adminFetch(t.sandbox, 'GET', '/__admin/state')).body.faults;
		expect(failNext).toEqual(plan.failNext.map((rule) => ({ ...rule, times: 1 })));
	});

	test.each([
		[{ kind: 'trickle', intervalMs: 0 }, 'failNext.intervalMs'],
		[{ kind: 'trickle', intervalMs: 2.5 }, 'failNext.intervalMs'],
		[{ kind: 'trickle', status: 99 }, 'failNext.status'],
		[{ kind: 'gzipBomb', inflatedBytes: 11 }, 'failNext.inflatedBytes'],
		[{ kind: 'gzipBomb', inflatedBytes: 2 ** 33 }, 'failNext.inflatedBytes'],
		[{ kind: 'bigList', records: -1 }, 'failNext.records'],
		[{ kind: 'bigList', recordBytes: 0 }, 'failNext.recordBytes'],
		[{ kind: 'bigList', gzip: 'yes' }, 'failNext.gzip'],
		[{ kind: 'bigList', method: 'POST' }, 'failNext.method'],
	])('refuses %j (400 naming %s)', async (rule, field) => {
		const res = await adminFetch(t.sandbox, 'POST', '/__admin/faults', { failNext: [rule] });
		expect([res.status, res.body.field]).toEqual([400, field]);
	});
});
