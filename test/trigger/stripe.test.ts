import { deriveHmacKeys } from '../../nodes/PartnerLogistics/webhook/hmacKeys';
import { verifyStripeSignature } from '../../nodes/PartnerLogistics/webhook/signature';
import { NOW, nowSeconds, stripeHeader } from './signers';

const body = JSON.stringify({ id: 'evt_1', type: 'payment.succeeded' });
const current = 'whsec_current_stripe_style';
const previous = 'whsec_previous_stripe_style';

function verify(
	header: string | undefined,
	options: { rawBody?: string; secrets?: string[] } = {},
) {
	return verifyStripeSignature({
		rawBody: Buffer.from(options.rawBody ?? body),
		header,
		hmacKeys: deriveHmacKeys(options.secrets ?? [current], 'text'),
		toleranceSeconds: 300,
		now: NOW,
	});
}

describe('Stripe-style t=…,v1=… signed with node:crypto', () => {
	it('accepts a valid delivery, keying the HMAC with the secret string as Stripe does', () => {
		expect(verify(stripeHeader([current], body))).toEqual({
			ok: true,
			secretIndex: 0,
			timestampMs: nowSeconds() * 1000,
		});
	});

	it('accepts either of two v1 signatures (rotation on the sender side)', () => {
		const header = stripeHeader([previous, current], body);
		expect(verify(header, { secrets: [current] })).toMatchObject({ ok: true });
		expect(verify(header, { secrets: [previous] })).toMatchObject({ ok: true });
	});

	it('accepts a delivery signed with the previous secret while both are configured', () => {
		expect(verify(stripeHeader([previous], body), { secrets: [current, previous] })).toMatchObject({
			ok: true,
			secretIndex: 1,
		});
	});

	it('ignores v0 and unknown fields and tolerates spaces', () => {
		const header = stripeHeader([current], body).replace(',', ' , v0=abcd, x=1 ,');
		expect(verify(header)).toMatchObject({ ok: true });
	});

	it.each([
		['a wrong secret', stripeHeader(['whsec_someone_else'], body), body, 'signature-mismatch'],
		[
			'a body altered by one byte',
			stripeHeader([current], body),
			body.replace('1', '2'),
			'signature-mismatch',
		],
		['a stale timestamp', stripeHeader([current], body, nowSeconds(-301)), body, 'stale-timestamp'],
		[
			'a future timestamp',
			stripeHeader([current], body, nowSeconds(301)),
			body,
			'future-timestamp',
		],
		['a missing header', undefined, body, 'missing-header'],
		['an empty header', '', body, 'missing-header'],
		['no timestamp', stripeHeader([current], body).replace(/t=\d+,/, ''), body, 'malformed-header'],
		['two timestamps', `t=1,${stripeHeader([current], body)}`, body, 'malformed-header'],
		['no v1 signature', `t=${nowSeconds()},v0=abcd`, body, 'malformed-header'],
		['a v1 that is not hex', `t=${nowSeconds()},v1=zz`, body, 'malformed-header'],
		[
			'a timestamp that is not a number',
			stripeHeader([current], body).replace(/t=\d+/, 't=now'),
			body,
			'malformed-header',
		],
	])('refuses %s', (_label, header, rawBody, reason) => {
		expect(verify(header, { rawBody })).toEqual({ ok: false, reason });
	});

	it('refuses a timestamp edited after signing', () => {
		const header = stripeHeader([current], body).replace(
			/t=(\d+)/,
			(_m, t) => `t=${Number(t) - 1}`,
		);
		expect(verify(header)).toEqual({ ok: false, reason: 'signature-mismatch' });
	});
});
