// Secrets as the Standard Webhooks reference library reads them: a delivery `standardwebhooks`
// signs, we verify, whether or not the secret carries its whsec_ prefix.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import {
	deriveHmacKeys,
	standardWebhooksHmacKey,
} from '../../nodes/PartnerLogistics/webhook/hmacKeys';
import { credentialHmacKeys } from '../../nodes/PartnerLogistics/webhook/secrets';
import { verifyStandardWebhook } from '../../nodes/PartnerLogistics/webhook/signature';

const body = JSON.stringify({ type: 'booking.created', data: { bookingId: 'bk_1' } });

/** Signs with the library and verifies with ours; undefined when the library refuses the secret. */
function roundTrip(secret: string, ours = secret) {
	let webhook: Webhook;
	try {
		webhook = new Webhook(secret);
	} catch {
		return undefined;
	}
	const now = new Date();
	const headers = {
		'webhook-id': 'msg_keys',
		'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
		'webhook-signature': webhook.sign('msg_keys', now, body),
	};
	return verifyStandardWebhook({
		rawBody: Buffer.from(body),
		headers,
		hmacKeys: deriveHmacKeys([ours], 'standardWebhooks'),
		toleranceSeconds: 300,
		now: now.getTime(),
	}).ok;
}

describe('Standard Webhooks secrets, as the reference library reads them', () => {
	it('verifies what the library signs with a whsec_ secret and with the same secret unprefixed', () => {
		for (let i = 0; i < 20; i++) {
			const base64 = randomBytes(16 + i).toString('base64');
			expect([base64, roundTrip(`whsec_${base64}`)]).toEqual([base64, true]);
			expect([base64, roundTrip(base64)]).toEqual([base64, true]);
			// Both spellings are one key: a sender using either verifies against the other.
			expect(roundTrip(base64, `whsec_${base64}`)).toBe(true);
			expect(roundTrip(`whsec_${base64}`, base64)).toBe(true);
		}
	});

	it('reads no unprefixed secret as text any more: that is another key', () => {
		const base64 = randomBytes(24).toString('base64');
		expect(standardWebhooksHmacKey(base64)).toEqual(Buffer.from(base64, 'base64'));
		expect(standardWebhooksHmacKey(base64)).not.toEqual(Buffer.from(base64, 'utf8'));
	});

	it('accepts exactly the secrets the library accepts, with the same key, over 3,000 odd ones', () => {
		// Half from base64's own characters (padding included), half with strangers mixed in.
		const alphabets = ['AZaz09+/whsec=', 'AZaz09+/=-_ !whsec'];
		const disagreements: string[] = [];
		let accepted = 0;
		for (let i = 0; i < 3000; i++) {
			const alphabet = alphabets[i % 2];
			const length = i % 13;
			let secret = Array.from({ length }, () => alphabet[randomBytes(1)[0] % alphabet.length]).join(
				'',
			);
			if (i % 3 === 0) secret = `whsec_${secret}`;
			const library = roundTrip(secret);
			const ours = standardWebhooksHmacKey(secret) !== undefined;
			if ((library === undefined) === ours || library === false) disagreements.push(secret);
			if (ours) accepted++;
		}
		expect(disagreements).toEqual([]);
		expect(accepted).toBeGreaterThan(300);
	});

	it('reports a secret the library would refuse as a configuration problem, not echoing it', () => {
		for (const secret of ['whsec_not*base64', 'plain-text-secret', 'abc', 'whsec_A===']) {
			const result = credentialHmacKeys('standardWebhooks', { webhookSigningSecret: secret });
			expect(result).toMatchObject({
				ok: false,
				problem: expect.stringMatching(/not a Standard Webhooks secret/),
			});
			expect(JSON.stringify(result)).not.toContain(secret);
		}
		const usable = { webhookSigningSecret: 'c2VjcmV0LWtleS1ieXRlcw==' };
		expect(credentialHmacKeys('standardWebhooks', usable)).toMatchObject({ ok: true });
	});
});

describe('HmacKeys', () => {
	it('are derived once and start with the key that matched last', () => {
		const [current, previous] = [randomBytes(24), randomBytes(24)].map(
			(key) => `whsec_${key.toString('base64')}`,
		);
		const hmacKeys = deriveHmacKeys([current, previous], 'standardWebhooks');
		expect(hmacKeys.bySecret).toEqual([
			standardWebhooksHmacKey(current),
			standardWebhooksHmacKey(previous),
		]);
		expect(hmacKeys.first).toBe(0);
		const now = new Date();
		const headers = {
			'webhook-id': 'msg_rotation',
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(previous).sign('msg_rotation', now, body),
		};
		const verify = () =>
			verifyStandardWebhook({
				rawBody: Buffer.from(body),
				headers,
				hmacKeys,
				toleranceSeconds: 300,
				now: now.getTime(),
			});
		expect(verify()).toMatchObject({ ok: true, secretIndex: 1 });
		expect(hmacKeys.first).toBe(1);
		// Still reported as the previous secret, and still verified when tried first.
		expect(verify()).toMatchObject({ ok: true, secretIndex: 1 });
	});
});
