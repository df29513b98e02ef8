import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Webhook } from 'standardwebhooks';

import { type Sandbox, startSandbox, type WebhookMode } from './index';

const TOLERANCE_SECONDS = 300;

/** An independent Standard Webhooks verifier, node:crypto only. */
function verifyWithCrypto(
	secret: string,
	headers: IncomingHttpHeaders,
	raw: string,
	seen: Set<string>,
): string {
	const id = headers['webhook-id'];
	const timestamp = headers['webhook-timestamp'];
	const signature = headers['webhook-signature'];
	if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') {
		return 'missing-headers';
	}
	const age = Math.floor(Date.now() / 1000) - Number(timestamp);
	if (!Number.isInteger(Number(timestamp))) return 'bad-timestamp';
	if (age > TOLERANCE_SECONDS) return 'stale-timestamp';
	if (age < -TOLERANCE_SECONDS) return 'future-timestamp';
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest();
	const matches = signature.split(' ').some((versioned) => {
		const [version, value] = versioned.split(',');
		const given = Buffer.from(value ?? '', 'base64');
		return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
	});
	if (!matches) return 'bad-signature';
	if (seen.has(id)) return 'replay';
	try {
		JSON.parse(raw);
	} catch {
		return 'not-json';
	}
	seen.add(id);
	return 'ok';
}

function verifyWithLibrary(secret: string, headers: IncomingHttpHeaders, raw: string): string {
	try {
		// jsonParse off: the library's signature verdict alone (not-json is checked separately).
		new Webhook(secret).verify(raw, headers as Record<string, string>, { jsonParse: false });
		return 'ok';
	} catch (error) {
		return (error as Error).message;
	}
}

const secret = `whsec_${randomBytes(24).toString('base64')}`;
let sandbox: Sandbox;
let receiver: Server;
let url: string;
const seen = new Set<string>();
const received: Array<{ headers: IncomingHttpHeaders; raw: string }> = [];

beforeAll(async () => {
	sandbox = await startSandbox();
	receiver = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString();
			received.push({ headers: req.headers, raw });
			const crypto = verifyWithCrypto(secret, req.headers, raw, seen);
			const library = verifyWithLibrary(secret, req.headers, raw);
			const status =
				crypto === 'ok' || crypto === 'replay' ? 200 : crypto === 'not-json' ? 400 : 401;
			res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
			res.end(JSON.stringify({ crypto, library }));
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
	await sandbox.close();
	await new Promise((resolve) => receiver.close(resolve));
});

const send = (mode: WebhookMode, extra: Record<string, unknown> = {}) =>
	sandbox.admin.sendWebhook({
		url,
		secret,
		type: 'booking.updated',
		data: { bookingId: 'bk_1' },
		mode,
		...extra,
	});

describe('webhook emitter (Standard Webhooks)', () => {
	test('valid: verifies with node:crypto and with the standardwebhooks library', async () => {
		const result = await send('valid');
		expect(result.status).toBe(200);
		expect(result.body).toEqual({ crypto: 'ok', library: 'ok' });
		const event = JSON.parse(result.sentBody);
		expect(event).toEqual({
			id: result.id,
			type: 'booking.updated',
			createdAt: expect.any(String),
			data: { bookingId: 'bk_1' },
		});
		expect(result.headers['webhook-id']).toBe(result.id);
		expect(Number(result.headers['webhook-timestamp'])).toBe(result.timestamp);
		expect(Math.abs(result.timestamp - Date.now() / 1000)).toBeLessThan(5);
		const librarySignature = new Webhook(secret).sign(
			result.id,
			new Date(result.timestamp * 1000),
			result.sentBody,
		);
		expect(result.headers['webhook-signature']).toBe(librarySignature);
	});

	test.each<[WebhookMode, number, string, RegExp | string]>([
		['bad-signature', 401, 'bad-signature', 'No matching signature found'],
		['wrong-secret', 401, 'bad-signature', 'No matching signature found'],
		['stale-timestamp', 401, 'stale-timestamp', 'Message timestamp too old'],
		['future-timestamp', 401, 'future-timestamp', 'Message timestamp too new'],
		['missing-headers', 401, 'missing-headers', 'Missing required headers'],
		['tampered-body', 401, 'bad-signature', 'No matching signature found'],
		['not-json', 400, 'not-json', 'ok'],
	])('%s is refused by both verifiers as documented', async (mode, status, crypto, library) => {
		const result = await send(mode);
		expect(result.status).toBe(status);
		expect(result.body).toEqual({ crypto, library });
	});

	test('stale/future timestamps are 10 minutes off and correctly signed for that timestamp', async () => {
		const now = Math.floor(Date.now() / 1000);
		const stale = await send('stale-timestamp');
		const future = await send('future-timestamp');
		expect(now - stale.timestamp).toBeGreaterThanOrEqual(599);
		expect(now - stale.timestamp).toBeLessThanOrEqual(600);
		expect(future.timestamp - now).toBeGreaterThanOrEqual(600);
		expect(future.timestamp - now).toBeLessThanOrEqual(601);
		expect(stale.headers['webhook-signature']).toBe(
			new Webhook(secret).sign(stale.id, new Date(stale.timestamp * 1000), stale.sentBody),
		);
	});

	test('tampered-body: valid JSON differing from the signed body by one byte', async () => {
		const result = await send('tampered-body');
		expect(result.sentBody).not.toBe(result.signedBody);
		expect(result.sentBody).toHaveLength(result.signedBody.length);
		const differing = [...result.sentBody].filter((ch, i) => ch !== result.signedBody[i]);
		expect(differing).toHaveLength(1);
		expect(() => JSON.parse(result.sentBody)).not.toThrow();
	});

	test('missing-headers sends no webhook-* header at all', async () => {
		await send('missing-headers');
		const last = received[received.length - 1];
		expect(Object.keys(last.headers).filter((h) => h.startsWith('webhook-'))).toEqual([]);
		expect(last.headers['content-type']).toBe('application/json');
	});

	test('replay re-sends the previous delivery byte for byte; the signature is still valid', async () => {
		const first = await send('valid');
		const replay = await send('replay');
		expect(replay.body).toEqual({ crypto: 'replay', library: 'ok' });
		expect(replay.status).toBe(200);
		expect([replay.id, replay.timestamp, replay.sentBody]).toEqual([
			first.id,
			first.timestamp,
			first.sentBody,
		]);
		const [a, b] = received.slice(-2);
		expect(b.raw).toBe(a.raw);
		expect(b.headers['webhook-signature']).toBe(a.headers['webhook-signature']);
	});

	test('fixed id, timestamp, body and content type are honoured', async () => {
		const timestamp = Math.floor(Date.now() / 1000) - 10;
		const result = await send('valid', {
			id: 'msg_fixed',
			timestamp,
			body: '{"custom":true}',
			contentType: 'application/cloudevents+json',
		});
		expect(result.body).toEqual({ crypto: 'ok', library: 'ok' });
		expect(received[received.length - 1]).toMatchObject({
			raw: '{"custom":true}',
			headers: {
				'webhook-id': 'msg_fixed',
				'webhook-timestamp': String(timestamp),
				'content-type': 'application/cloudevents+json',
			},
		});
	});
});
