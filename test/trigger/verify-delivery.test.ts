// verifyDelivery, the trigger's one call into the schemes: each scheme's options as the trigger
// reads them from its parameters, and the status each refusal is answered with.
import { deriveHmacKeys, hmacKeyFormat } from '../../nodes/PartnerLogistics/webhook/hmacKeys';
import { REFUSALS } from '../../nodes/PartnerLogistics/webhook/refusedDelivery';
import {
	resolveSettings,
	type SignatureScheme,
	type TriggerOptions,
} from '../../nodes/PartnerLogistics/webhook/settings';
import { type HeaderMap, verifyDelivery } from '../../nodes/PartnerLogistics/webhook/signature';
import { hmacOf, NOW, newWhsec, nowSeconds, standardHeaders, stripeHeader } from './signers';

const body = JSON.stringify({ id: 'evt_77', type: 'booking.created' });
const plain = 'plain-shared-secret';

/** Verifies `body` as the trigger does, with header names in lower case as n8n hands them over. */
function verify(
	scheme: SignatureScheme,
	options: Partial<TriggerOptions>,
	headers: HeaderMap,
	secret = plain,
) {
	const resolved = resolveSettings(scheme, '', options);
	if (!resolved.ok) throw new Error(resolved.problem);
	const hmacKeys = deriveHmacKeys([secret], hmacKeyFormat(scheme));
	return verifyDelivery(resolved.settings, { rawBody: Buffer.from(body), headers }, hmacKeys, NOW);
}

describe('verifyDelivery', () => {
	it('Standard Webhooks: reports the webhook-id and the signed timestamp', () => {
		const secret = newWhsec();
		const headers = standardHeaders(secret, body, { id: 'msg_1' });
		expect(verify('standardWebhooks', {}, headers, secret)).toEqual({
			ok: true,
			eventId: 'msg_1',
			timestampMs: nowSeconds() * 1000,
			secretIndex: 0,
		});
	});

	it('Stripe-style: reads the Stripe-Style Signature Header and Timestamp Tolerance options', () => {
		const options = { stripeHeaderName: 'X-Partner-Signature' };
		const header = stripeHeader([plain], body);
		expect(verify('stripe', options, { 'x-partner-signature': header })).toMatchObject({
			ok: true,
			timestampMs: nowSeconds() * 1000,
		});
		expect(verify('stripe', options, { 'stripe-signature': header })).toEqual({
			ok: false,
			reason: 'missing-header',
		});
		const old = { 'stripe-signature': stripeHeader([plain], body, nowSeconds(-400)) };
		expect(verify('stripe', {}, old)).toEqual({ ok: false, reason: 'stale-timestamp' });
		expect(verify('stripe', { toleranceSeconds: 600 }, old)).toMatchObject({ ok: true });
	});

	it('HMAC header: reads the header, algorithm, encoding and prefix options', () => {
		const options = {
			hmacAlgorithm: 'sha512',
			hmacEncoding: 'base64',
			hmacPrefix: 'sha512=',
			hmacHeaderName: 'X-Hub-Signature',
		} as const;
		const signed = (algorithm: 'sha256' | 'sha512') =>
			`sha512=${hmacOf(plain, body, algorithm, 'base64')}`;
		expect(verify('hmacHeader', options, { 'x-hub-signature': signed('sha512') })).toEqual({
			ok: true,
			secretIndex: 0,
		});
		expect(verify('hmacHeader', options, { 'x-hub-signature': signed('sha256') })).toEqual({
			ok: false,
			reason: 'signature-mismatch',
		});
		expect(verify('hmacHeader', options, { 'x-signature': signed('sha512') })).toEqual({
			ok: false,
			reason: 'missing-header',
		});
		// The defaults: X-Signature, SHA-256, hex, no prefix.
		expect(verify('hmacHeader', {}, { 'x-signature': hmacOf(plain, body) })).toMatchObject({
			ok: true,
		});
	});

	it('None: accepts any delivery, with no keys, by the user’s explicit choice', () => {
		const resolved = resolveSettings('none', '', {});
		if (!resolved.ok) throw new Error(resolved.problem);
		const delivery = { rawBody: Buffer.from('anything'), headers: {} };
		expect(verifyDelivery(resolved.settings, delivery, deriveHmacKeys([], 'text'))).toEqual({
			ok: true,
		});
	});
});

test('a refusal answers 401 when the signature does not hold, 400 for a verified body not JSON', () => {
	const statuses = Object.entries(REFUSALS).map(([reason, { status }]) => [reason, status]);
	expect(Object.fromEntries(statuses)).toEqual({
		'no-secret': 401,
		'missing-header': 401,
		'malformed-header': 401,
		'stale-timestamp': 401,
		'future-timestamp': 401,
		'signature-mismatch': 401,
		'not-json-content-type': 400,
		'invalid-json': 400,
	});
});
