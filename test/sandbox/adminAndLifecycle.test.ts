import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { adminFetch, apiClient } from './apiClient';
import { startSandbox } from './index';
import { sandboxPerFile } from './perFile';
import { HOME_DROPOFF, HOME_PICKUP } from './routeForms';

const t = sandboxPerFile();

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };

describe('admin HTTP routes', () => {
	test('401 without or with a wrong x-sandbox-admin-token', async () => {
		for (const token of [null, 'wrong', `${t.sandbox.adminToken}x`]) {
			const res = await adminFetch(t.sandbox, 'GET', '/__admin/state', undefined, token);
			expect([res.status, res.body.code]).toEqual([401, 'ADMIN_TOKEN_REQUIRED']);
		}
		expect((await adminFetch(t.sandbox, 'POST', '/__admin/reset', {}, null)).status).toBe(401);
		expect((await adminFetch(t.sandbox, 'GET', '/__admin/nothing')).status).toBe(404);
	});

	test('state, log and reset; admin calls never appear in the log', async () => {
		const api = apiClient(t.sandbox);
		await api.post('/partner-api/booking-quotes', route);
		const state = await adminFetch(t.sandbox, 'GET', '/__admin/state');
		expect(state.status).toBe(200);
		expect(state.body.A.counts.quotes).toBe(1);
		expect(state.body.settings).toMatchObject({ quoteTtlMs: 900_000, rateLimitPerSecond: null });

		const log = await adminFetch(t.sandbox, 'GET', '/__admin/log');
		expect(log.body.map((e: { path: string }) => e.path)).toEqual(['/partner-api/booking-quotes']);
		expect((await adminFetch(t.sandbox, 'DELETE', '/__admin/log')).status).toBe(200);
		expect((await adminFetch(t.sandbox, 'GET', '/__admin/log')).body).toEqual([]);
		expect(t.sandbox.requests()).toEqual([]);

		expect((await adminFetch(t.sandbox, 'POST', '/__admin/reset')).status).toBe(200);
		expect(t.sandbox.admin.state().A.counts.quotes).toBe(0);
	});

	test('operator flow over HTTP: quotation, credit, assign, move, settle and fail', async () => {
		const api = apiClient(t.sandbox);
		const qr = (await api.post('/partner-api/quote-requests', {})).body.quoteRequestId;
		const issued = await adminFetch(t.sandbox, 'POST', `/__admin/quote-requests/${qr}/quotation`, {
			amount: 1234,
			creditTerms: true,
		});
		expect(issued.body.quotation).toMatchObject({ amount: 1234, creditTerms: true });
		expect(
			(await adminFetch(t.sandbox, 'POST', '/__admin/orgs/A/credit', { enabled: false })).status,
		).toBe(200);
		const refused = await api.post(`/partner-api/quote-requests/${qr}/payment`, {
			paymentMethod: 'CREDIT',
		});
		expect(refused.body.code).toBe('CREDIT_NOT_ENABLED');
		const bad = await adminFetch(t.sandbox, 'POST', '/__admin/orgs/C/credit', { enabled: true });
		expect(bad.status).toBe(400);

		const hq = (await api.post('/partner-api/haulage/quotations', { origin: 'Apapa' })).body
			.quotationId;
		expect(
			(await adminFetch(t.sandbox, 'POST', `/__admin/haulage/quotations/${hq}/assign`)).status,
		).toBe(409);
		await adminFetch(t.sandbox, 'POST', `/__admin/haulage/quotations/${hq}/quotation`, {});
		const pay = await api.post(`/partner-api/haulage/quotations/${hq}/payment`, {
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: t.sandbox.savedCards.enabled,
			paymentStage: 'UPFRONT',
		});
		const assigned = await adminFetch(
			t.sandbox,
			'POST',
			`/__admin/haulage/quotations/${hq}/assign`,
		);
		expect(assigned.body).toEqual({ assignmentId: expect.any(String), tripId: expect.any(String) });
		const { assignmentId, tripId } = assigned.body;
		const moved = await adminFetch(
			t.sandbox,
			'POST',
			`/__admin/haulage/trucks/${assignmentId}/move`,
			{
				latitude: 9,
				longitude: 7,
				status: 'IN_TRANSIT',
			},
		);
		expect(moved.body).toMatchObject({
			status: 'IN_TRANSIT',
			lastPosition: { latitude: 9, longitude: 7 },
		});
		const progressed = await adminFetch(
			t.sandbox,
			'POST',
			`/__admin/haulage/trips/${tripId}/progress`,
		);
		expect(progressed.body).toMatchObject({ tripId, status: 'IN_PROGRESS' });
		const badStatus = await adminFetch(
			t.sandbox,
			'POST',
			`/__admin/haulage/trips/${tripId}/progress`,
			{
				status: 'LOST',
			},
		);
		expect([badStatus.status, badStatus.body.field]).toEqual([400, 'status']);

		const ref = pay.body.paymentReference;
		const settled = await adminFetch(t.sandbox, 'POST', `/__admin/payments/${ref}/settle`);
		expect(settled.body).toMatchObject({ reference: ref, status: 'SUCCEEDED' });
		const failLate = await adminFetch(t.sandbox, 'POST', `/__admin/payments/${ref}/fail`);
		expect([failLate.status, failLate.body.code]).toEqual([409, 'PAYMENT_NOT_PENDING']);
		expect((await adminFetch(t.sandbox, 'POST', '/__admin/payments/pay_0/settle')).status).toBe(
			404,
		);
	});

	test('faults (RegExp paths as strings), rate limit and quote TTL over HTTP; admin is never faulted or limited', async () => {
		const faults = await adminFetch(t.sandbox, 'POST', '/__admin/faults', {
			failNext: [
				{ status: 503, times: 2, retryAfterSeconds: 0, path: String(/^\/partner-api\/hub/) },
			],
		});
		expect(faults.status).toBe(200);
		const api = apiClient(t.sandbox);
		expect((await api.get('/partner-api/hubs')).status).toBe(503);
		expect((await adminFetch(t.sandbox, 'GET', '/__admin/state')).body.faults.failNext).toEqual([
			expect.objectContaining({ times: 1, path: '/^\\/partner-api\\/hub/' }),
		]);
		expect((await api.get('/partner-api/hubs')).status).toBe(503);
		expect((await api.get('/partner-api/hubs')).status).toBe(200);

		await adminFetch(t.sandbox, 'POST', '/__admin/faults', {
			failNext: [{ status: 500, path: '/partner-api/hubs' }],
		});
		expect((await api.get('/partner-api/hubs')).status).toBe(500);

		await adminFetch(t.sandbox, 'POST', '/__admin/faults', { rate500: 1 });
		await adminFetch(t.sandbox, 'POST', '/__admin/rate-limit', { perSecond: 1 });
		for (let i = 0; i < 3; i++)
			expect((await adminFetch(t.sandbox, 'GET', '/__admin/state')).status).toBe(200);
		await adminFetch(t.sandbox, 'POST', '/__admin/faults', {});
		expect((await api.get('/partner-api/hubs')).status).toBe(200);
		expect((await api.get('/partner-api/hubs')).status).toBe(429);
		await adminFetch(t.sandbox, 'POST', '/__admin/rate-limit', { perSecond: null });
		expect((await api.get('/partner-api/hubs')).status).toBe(200);
		expect(
			(await adminFetch(t.sandbox, 'POST', '/__admin/rate-limit', { perSecond: 0 })).status,
		).toBe(400);

		await adminFetch(t.sandbox, 'POST', '/__admin/quote-ttl', { ms: 1 });
		const quote = await api.post('/partner-api/booking-quotes', route);
		await new Promise((r) => setTimeout(r, 10));
		const booking = await api.post('/partner-api/bookings', {
			...route,
			quoteId: quote.body.quoteId,
		});
		expect(booking.body.code).toBe('QUOTE_EXPIRED');
	});

	test('webhooks/send over HTTP returns the receiver answer', async () => {
		const receiver = createServer((req, res) => {
			req.resume();
			req.on('end', () =>
				res.writeHead(202, { 'content-type': 'application/json' }).end('{"got":true}'),
			);
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
			const secret = `whsec_${randomBytes(24).toString('base64')}`;
			const res = await adminFetch(t.sandbox, 'POST', '/__admin/webhooks/send', {
				url,
				secret,
				type: 'x.y',
			});
			expect(res.body).toMatchObject({ status: 202, body: { got: true }, id: expect.any(String) });
			const bad = await adminFetch(t.sandbox, 'POST', '/__admin/webhooks/send', {
				url,
				secret,
				type: 'x',
				mode: 'nope',
			});
			expect(bad.status).toBe(400);
		} finally {
			await new Promise((resolve) => receiver.close(resolve));
		}
	});
});

describe('lifecycle', () => {
	test('close() resolves with requests in flight, refuses new connections, and is idempotent', async () => {
		const box = await startSandbox({ keys: { full: 'fixed-full-key' }, adminToken: 'fixed-admin' });
		expect(box.keys.full).toBe('fixed-full-key');
		expect(box.url).toBe(`${box.origin}/api/v1`);
		expect(box.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		box.admin.setFaults({ delayMs: 5_000 });
		const pending = apiClient(box).get('/partner-api/hubs');
		await new Promise((r) => setTimeout(r, 30));
		const started = Date.now();
		await Promise.all([box.close(), box.close()]);
		expect(Date.now() - started).toBeLessThan(1000);
		await expect(pending).rejects.toThrow();
		await expect(fetch(`${box.url}/partner-api/hubs`)).rejects.toThrow();
	});

	test('a fixed port is honoured', async () => {
		// A port just freed may be taken by another test file's server in between: try another.
		for (let attempt = 1; ; attempt++) {
			const probe = await startSandbox();
			const port = Number(new URL(probe.origin).port);
			await probe.close();
			const box = await startSandbox({ port }).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== 'EADDRINUSE' || attempt === 5) throw error;
				return undefined;
			});
			if (!box) continue;
			expect(box.origin).toBe(`http://127.0.0.1:${port}`);
			await box.close();
			return;
		}
	});

	test('the CLI prints one JSON line with --json and stops on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				join(__dirname, 'cli.ts'),
				'--json',
				'--rate-limit',
				'5',
				'--replay-refusals',
			],
			{
				env: { ...process.env, SANDBOX_KEYS_JSON: JSON.stringify({ otherOrg: 'org-b-fixed' }) },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		try {
			const line = await new Promise<string>((resolve, reject) => {
				createInterface({ input: child.stdout }).once('line', resolve);
				child.once('exit', (code) => reject(new Error(`cli exited ${code}`)));
			});
			const info = JSON.parse(line);
			expect(info).toMatchObject({
				url: expect.stringMatching(/\/api\/v1$/),
				keys: { full: expect.any(String), otherOrg: 'org-b-fixed' },
				adminToken: expect.any(String),
				savedCards: { enabled: 'pm_card_a_api' },
				redirectTargetOrigin: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
			});
			expect(info.redirectTargetOrigin).not.toBe(info.origin);
			const hubs = await fetch(`${info.url}/partner-api/hubs`, {
				headers: { 'X-SVC-API-Key': info.keys.full },
			});
			expect(hubs.status).toBe(200);
			const state = await fetch(`${info.origin}/__admin/state`, {
				headers: { 'x-sandbox-admin-token': info.adminToken },
			});
			const { settings } = (await state.json()) as { settings: Record<string, unknown> };
			expect(settings).toMatchObject({ rateLimitPerSecond: 5, replayRefusals: true });
		} finally {
			const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		}
	}, 20_000);
});
