// The secret cache's timing policy, on a clock the test moves: what the trigger reads from n8n's
// credential store, and when, for deliveries signed by the Standard Webhooks reference library.
import {
	HMAC_KEYS_REREAD_AFTER_MS,
	HMAC_KEYS_REUSED_FOR_MS,
	type HmacKeysWanted,
	SecretCache,
	type SigningSecrets,
	type TriggerCredential,
} from '../../nodes/PartnerLogistics/webhook/secrets';
import { verifyStandardWebhook } from '../../nodes/PartnerLogistics/webhook/signature';
import { NOW, newWhsec, standardHeaders } from './signers';

const body = JSON.stringify({ type: 'booking.created' });

/** A trigger's credential as n8n's store holds it, a clock, and deliveries verified as webhook() does. */
function trigger(stored: SigningSecrets, credential: Partial<TriggerCredential> = {}) {
	let now = NOW;
	let reads = 0;
	let failure: Error | undefined;
	const cache = new SecretCache(() => now);
	const subject: TriggerCredential = {
		scheme: 'standardWebhooks',
		id: 'credential-1',
		read: async () => {
			reads++;
			if (failure) throw failure;
			return stored;
		},
		...credential,
	};
	return {
		cache,
		credential: subject,
		reads: () => reads,
		advance: (ms: number) => (now += ms),
		save: (secrets: SigningSecrets) => (stored = secrets),
		failReads: (error?: Error) => (failure = error),
		/** The outcome of a delivery signed with `secret`: 'ok', a refusal reason, or a problem. */
		deliver: async (secret: string, wanted: HmacKeysWanted = 'delivery') => {
			const hmacKeys = await cache.hmacKeys(subject, wanted);
			if (!hmacKeys.ok) return hmacKeys.problem;
			const headers = standardHeaders(secret, body, { timestamp: Math.floor(now / 1000) });
			const verification = await cache.verify(subject, hmacKeys, (signing) =>
				verifyStandardWebhook({
					rawBody: Buffer.from(body),
					headers,
					hmacKeys: signing,
					toleranceSeconds: 300,
					now,
				}),
			);
			if ('problem' in verification) return verification.problem;
			return verification.ok ? 'ok' : verification.reason;
		},
	};
}

describe('SecretCache', () => {
	const secret = newWhsec();

	it('reads the credential once for the deliveries of a minute, then again', async () => {
		const t = trigger({ webhookSigningSecret: secret });
		for (let i = 0; i < 10; i++) expect(await t.deliver(secret)).toBe('ok');
		expect(t.reads()).toBe(1);
		t.advance(HMAC_KEYS_REUSED_FOR_MS - 1);
		expect(await t.deliver(secret)).toBe('ok');
		expect(t.reads()).toBe(1);
		t.advance(1);
		expect(await t.deliver(secret)).toBe('ok');
		expect(t.reads()).toBe(2);
	});

	it('reads it again on a signature mismatch once 5 s old: a rotated secret applies within seconds', async () => {
		const t = trigger({ webhookSigningSecret: secret });
		expect(await t.deliver(secret)).toBe('ok');
		// The user saves a new secret. Until the cached keys are 5 s old a delivery signed with it is
		// refused (the sender retries); after that the mismatch reads the credential again.
		const rotated = newWhsec();
		t.save({ webhookSigningSecret: rotated, previousWebhookSigningSecret: secret });
		expect(await t.deliver(rotated)).toBe('signature-mismatch');
		t.advance(HMAC_KEYS_REREAD_AFTER_MS - 1);
		expect(await t.deliver(rotated)).toBe('signature-mismatch');
		expect(t.reads()).toBe(1);
		t.advance(1);
		expect(await t.deliver(rotated)).toBe('ok');
		expect(await t.deliver(secret)).toBe('ok');
		expect(await t.deliver(newWhsec())).toBe('signature-mismatch');
		expect(t.reads()).toBe(2);
	});

	it('remembers a broken secret for 5 s only, so a fixed credential applies within seconds', async () => {
		const t = trigger({ webhookSigningSecret: 'not base64!' });
		expect(await t.deliver(secret)).toMatch(/Webhook Signing Secret is not a Standard Webhooks/);
		expect(await t.deliver(secret)).toMatch(/Webhook Signing Secret is not a Standard Webhooks/);
		expect(t.reads()).toBe(1);
		t.save({ webhookSigningSecret: secret });
		t.advance(HMAC_KEYS_REREAD_AFTER_MS - 1);
		expect(await t.deliver(secret)).toMatch(/not a Standard Webhooks secret/);
		t.advance(1);
		expect(await t.deliver(secret)).toBe('ok');
		expect(t.reads()).toBe(2);
	});

	it('finds a secret broken after publishing at the first mismatch 5 s on', async () => {
		const t = trigger({ webhookSigningSecret: secret });
		expect(await t.deliver(secret)).toBe('ok');
		t.save({ webhookSigningSecret: '' });
		t.advance(HMAC_KEYS_REREAD_AFTER_MS);
		expect(await t.deliver(newWhsec())).toMatch(/has no Webhook Signing Secret/);
		// Broken now, also for deliveries signed with the secret it held.
		expect(await t.deliver(secret)).toMatch(/has no Webhook Signing Secret/);
		expect(t.reads()).toBe(2);
	});

	it('never remembers a credential that could not be read', async () => {
		const t = trigger({ webhookSigningSecret: secret });
		t.failReads(new Error('database unavailable'));
		expect(await t.deliver(secret)).toBe(
			'The Partner Logistics API credential could not be read: database unavailable',
		);
		t.failReads(undefined);
		expect(await t.deliver(secret)).toBe('ok');
		expect(t.reads()).toBe(2);
	});

	it('reads afresh for a test event or publishing, and not again on its mismatch', async () => {
		const t = trigger({ webhookSigningSecret: secret });
		expect(await t.deliver(secret)).toBe('ok');
		expect(await t.deliver(secret, 'fresh')).toBe('ok');
		expect(await t.cache.hmacKeys(t.credential, 'fresh')).toMatchObject({ ok: true });
		expect(t.reads()).toBe(3);
		expect(await t.deliver(newWhsec(), 'fresh')).toBe('signature-mismatch');
		expect(t.reads()).toBe(4);
	});

	it('keeps keys per credential and scheme; a credential without an id is read every time', async () => {
		const t = trigger({ webhookSigningSecret: secret });
		expect(await t.deliver(secret)).toBe('ok');
		const stripe = { ...t.credential, scheme: 'stripe' as const };
		const other = { ...t.credential, id: 'credential-2' };
		for (const credential of [stripe, other, stripe, other]) {
			expect(await t.cache.hmacKeys(credential, 'delivery')).toMatchObject({ ok: true });
		}
		expect(t.reads()).toBe(3);
		const unsaved = trigger({ webhookSigningSecret: secret }, { id: null });
		expect(await unsaved.deliver(secret)).toBe('ok');
		expect(await unsaved.deliver(secret)).toBe('ok');
		expect(unsaved.reads()).toBe(2);
	});

	it('reads nothing for None', async () => {
		const t = trigger({}, { scheme: 'none' });
		expect(await t.cache.hmacKeys(t.credential, 'fresh')).toEqual({
			ok: true,
			hmacKeys: { bySecret: [], first: 0 },
		});
		expect(t.reads()).toBe(0);
	});
});
