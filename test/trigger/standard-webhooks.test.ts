import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import { deriveHmacKeys } from '../../nodes/PartnerLogistics/webhook/hmacKeys';
import { verifyStandardWebhook } from '../../nodes/PartnerLogistics/webhook/signature';
import { NOW, newWhsec, nowSeconds, standardHeaders } from './signers';

const body = JSON.stringify({ type: 'booking.created', data: { bookingId: 'bk_1' } });
const current = newWhsec();
const previous = newWhsec();

function verify(
	headers: Record<string, string | undefined>,
	options: { rawBody?: string; secrets?: string[]; now?: number; unit?: 'auto' | 'seconds' } = {},
) {
	return verifyStandardWebhook({
		rawBody: Buffer.from(options.rawBody ?? body),
		headers,
		hmacKeys: deriveHmacKeys(options.secrets ?? [current], 'standardWebhooks'),
		toleranceSeconds: 300,
		timestampUnit: options.unit,
		now: options.now ?? NOW,
	});
}

describe('Standard Webhooks, signed by the reference library', () => {
	afterEach(() => jest.useRealTimers());

	it('accepts a valid delivery and reports its id and timestamp', () => {
		const headers = standardHeaders(current, body, { id: 'msg_1' });
		expect(verify(headers)).toEqual({
			ok: true,
			eventId: 'msg_1',
			timestampMs: nowSeconds() * 1000,
			secretIndex: 0,
		});
	});

	it('reads a secret without whsec_ as base64, as the reference library does', () => {
		const secret = current.slice('whsec_'.length);
		expect(verify(standardHeaders(secret, body), { secrets: [secret] })).toMatchObject({
			ok: true,
		});
		expect(verify(standardHeaders(current, body), { secrets: [secret] })).toMatchObject({
			ok: true,
		});
		// Its text is another key: a sender keying with the raw text does not verify.
		const asText = standardHeaders(secret, body, { raw: true });
		expect(verify(asText, { secrets: [secret] })).toEqual({
			ok: false,
			reason: 'signature-mismatch',
		});
	});

	it('accepts a delivery signed with the previous secret during rotation', () => {
		const headers = standardHeaders(previous, body);
		expect(verify(headers, { secrets: [current, previous] })).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
		expect(verify(headers, { secrets: [current] })).toEqual({
			ok: false,
			reason: 'signature-mismatch',
		});
	});

	it('accepts a header carrying several signatures if any matches', () => {
		const byOld = standardHeaders(previous, body, { id: 'msg_2' });
		const byNew = standardHeaders(current, body, { id: 'msg_2' });
		const headers = {
			...byNew,
			'webhook-signature': `${byOld['webhook-signature']} ${byNew['webhook-signature']}`,
		};
		expect(verify(headers, { secrets: [current] })).toMatchObject({ ok: true });
		expect(verify(headers, { secrets: [previous] })).toMatchObject({ ok: true });
		expect(verify(headers, { secrets: [newWhsec()] })).toMatchObject({ ok: false });
	});

	it('reads a signature header as the reference library does: extra commas and spaces', () => {
		const headers = standardHeaders(current, body, { id: 'msg_3' });
		const good = headers['webhook-signature'];
		const library = new Webhook(current);
		for (const signature of [`${good},extra`, `  ${good}`, `v2,AAAA  ${good} `, `v1, ${good}`]) {
			const variant = { ...headers, 'webhook-signature': signature };
			let libraryAccepts = true;
			try {
				jest.useFakeTimers({ now: NOW });
				library.verify(body, variant);
			} catch {
				libraryAccepts = false;
			} finally {
				jest.useRealTimers();
			}
			expect([signature, verify(variant).ok]).toEqual([signature, libraryAccepts]);
		}
	});

	it('refuses a wrong secret', () => {
		const headers = standardHeaders(newWhsec(), body);
		expect(verify(headers)).toEqual({ ok: false, reason: 'signature-mismatch' });
	});

	it('refuses a body altered by one byte', () => {
		const headers = standardHeaders(current, body);
		const altered = Buffer.from(body);
		altered[10] ^= 0x01;
		expect(verify(headers, { rawBody: altered.toString('latin1') })).toEqual({
			ok: false,
			reason: 'signature-mismatch',
		});
	});

	it('refuses a signature moved to another event id or timestamp', () => {
		const headers = standardHeaders(current, body, { id: 'msg_a' });
		expect(verify({ ...headers, 'webhook-id': 'msg_b' })).toMatchObject({
			reason: 'signature-mismatch',
		});
		const later = String(Number(headers['webhook-timestamp']) + 1);
		expect(verify({ ...headers, 'webhook-timestamp': later })).toMatchObject({
			reason: 'signature-mismatch',
		});
	});

	it.each([
		['300 s old', -300, true],
		['301 s old', -301, 'stale-timestamp'],
		['300 s ahead', 300, true],
		['301 s ahead', 301, 'future-timestamp'],
	])('applies the 300 s tolerance: %s', (_label, offset, expected) => {
		const headers = standardHeaders(current, body, { timestamp: nowSeconds(offset) });
		const result = verify(headers);
		if (expected === true) expect(result).toMatchObject({ ok: true });
		else expect(result).toEqual({ ok: false, reason: expected });
	});

	it('reads millisecond timestamps in auto mode', () => {
		const id = 'msg_ms';
		const timestamp = String(NOW);
		// The reference library only writes seconds, so node:crypto signs this one.
		const key = Buffer.from(current.slice(6), 'base64');
		const signature = createHmac('sha256', key)
			.update(`${id}.${timestamp}.${body}`)
			.digest('base64');
		const headers = {
			'webhook-id': id,
			'webhook-timestamp': timestamp,
			'webhook-signature': `v1,${signature}`,
		};
		expect(verify(headers)).toMatchObject({ ok: true, timestampMs: NOW });
		expect(verify(headers, { unit: 'seconds' })).toEqual({
			ok: false,
			reason: 'future-timestamp',
		});
	});

	it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])(
		'refuses a delivery without %s',
		(name) => {
			const headers: Record<string, string | undefined> = standardHeaders(current, body);
			delete headers[name];
			expect(verify(headers)).toEqual({ ok: false, reason: 'missing-header' });
			expect(verify({ ...headers, [name]: '' })).toEqual({ ok: false, reason: 'missing-header' });
		},
	);

	it.each([
		['a timestamp that is not a number', { 'webhook-timestamp': 'yesterday' }],
		['a negative timestamp', { 'webhook-timestamp': '-1700000000' }],
		['a fractional timestamp', { 'webhook-timestamp': '1700000000.5' }],
		['a signature without a version', { 'webhook-signature': 'bm90IGEgc2lnbmF0dXJl' }],
		['only an unknown version', { 'webhook-signature': 'v2,bm90IGEgc2lnbmF0dXJl' }],
		['a signature that is not base64', { 'webhook-signature': 'v1,***' }],
		['an empty v1 entry', { 'webhook-signature': 'v1,' }],
	])('refuses %s as malformed', (_label, override) => {
		const headers = { ...standardHeaders(current, body), ...override };
		expect(verify(headers)).toEqual({ ok: false, reason: 'malformed-header' });
	});

	it('refuses a well-formed signature of the wrong length as a mismatch', () => {
		const headers = { ...standardHeaders(current, body), 'webhook-signature': 'v1,AAAA' };
		expect(verify(headers)).toEqual({ ok: false, reason: 'signature-mismatch' });
	});

	it('never passes without a usable secret', () => {
		const headers = standardHeaders(current, body);
		expect(verify(headers, { secrets: [] })).toEqual({ ok: false, reason: 'no-secret' });
		expect(verify(headers, { secrets: ['whsec_***'] })).toEqual({ ok: false, reason: 'no-secret' });
	});

	it('agrees with the reference library on random mutations', () => {
		// One frozen clock for both, so a second ticking over between the two checks cannot differ.
		jest.useFakeTimers({ now: NOW });
		const library = new Webhook(current);
		let accepted = 0;
		for (let round = 0; round < 300; round++) {
			const payload = JSON.stringify({ type: 'payment.succeeded', n: round });
			const headers: Record<string, string> = standardHeaders(
				round % 3 === 0 ? previous : current,
				payload,
				{ timestamp: nowSeconds(((round % 7) - 3) * 150) },
			);
			let sent = payload;
			if (round % 5 === 1) sent = payload.replace('payment', 'paymenT');
			if (round % 5 === 2) headers['webhook-id'] += 'x';
			let libraryAccepts = true;
			try {
				library.verify(sent, headers);
			} catch {
				libraryAccepts = false;
			}
			const ours = verify(headers, { rawBody: sent });
			expect(ours.ok).toBe(libraryAccepts);
			if (ours.ok) accepted++;
		}
		expect(accepted).toBeGreaterThan(50);
	});
});
