import {
	standardWebhooksHmacKey,
	textHmacKey,
} from '../../nodes/PartnerLogistics/webhook/hmacKeys';
import { credentialHmacKeys } from '../../nodes/PartnerLogistics/webhook/secrets';
import { DEFAULT_OPTIONS, resolveSettings } from '../../nodes/PartnerLogistics/webhook/settings';
import { checkTimestamp } from '../../nodes/PartnerLogistics/webhook/timestamp';

describe('resolveSettings', () => {
	it('applies the defaults and splits the event list', () => {
		expect(resolveSettings('standardWebhooks', ' booking.created,payment.* \n x ', {})).toEqual({
			ok: true,
			settings: {
				...DEFAULT_OPTIONS,
				signatureScheme: 'standardWebhooks',
				eventTypes: ['booking.created', 'payment.*', 'x'],
			},
		});
	});

	it('reads no event type header by default, and a named one trimmed', () => {
		expect(resolveSettings('none', '', {})).toMatchObject({ settings: { eventTypeHeader: '' } });
		expect(resolveSettings('none', '', { eventTypeHeader: ' X-Event-Type ' })).toMatchObject({
			settings: { eventTypeHeader: 'X-Event-Type' },
		});
	});

	it.each([
		['an unknown scheme', 'nonee', {}],
		['an empty scheme', '', {}],
		['an unknown algorithm', 'hmacHeader', { hmacAlgorithm: 'md5' }],
		['an unknown encoding', 'hmacHeader', { hmacEncoding: 'binary' }],
		['an unknown timestamp unit', 'stripe', { timestampUnit: 'minutes' }],
		['a zero tolerance', 'stripe', { toleranceSeconds: 0 }],
		['a tolerance that is not a number', 'stripe', { toleranceSeconds: 'soon' }],
		['negative hours to remember event ids', 'stripe', { rememberEventIdsHours: -1 }],
		['hours that are not a number', 'stripe', { rememberEventIdsHours: 'a day' }],
		['an empty header name', 'hmacHeader', { hmacHeaderName: ' ' }],
		['an empty event type field', 'hmacHeader', { eventTypeField: '' }],
		['an event type header that is no header name', 'stripe', { eventTypeHeader: 'X Event' }],
		['an event type header that is not text', 'stripe', { eventTypeHeader: 42 }],
		['an event type header of null', 'stripe', { eventTypeHeader: null }],
	])('reports %s instead of weakening verification', (_label, scheme, options) => {
		expect(resolveSettings(scheme, '', options)).toMatchObject({ ok: false });
	});
});

describe('credentialHmacKeys', () => {
	const secrets = (current: unknown, previous?: unknown) => ({
		webhookSigningSecret: current,
		previousWebhookSigningSecret: previous,
	});

	it('derives the current key first and skips an empty previous secret', () => {
		expect(credentialHmacKeys('standardWebhooks', secrets('whsec_AAAA', ''))).toEqual({
			ok: true,
			hmacKeys: { bySecret: [standardWebhooksHmacKey('AAAA')], first: 0 },
		});
		expect(credentialHmacKeys('stripe', secrets(' s1 ', 's0'))).toEqual({
			ok: true,
			hmacKeys: { bySecret: [textHmacKey('s1'), textHmacKey('s0')], first: 0 },
		});
	});

	it('needs no secret for None only', () => {
		expect(credentialHmacKeys('none', {})).toEqual({
			ok: true,
			hmacKeys: { bySecret: [], first: 0 },
		});
		for (const scheme of ['standardWebhooks', 'stripe', 'hmacHeader'] as const) {
			expect(credentialHmacKeys(scheme, secrets('', 'old'))).toMatchObject({ ok: false });
			expect(credentialHmacKeys(scheme, {})).toMatchObject({ ok: false });
		}
	});

	it('refuses a whsec_ secret that is not base64 without echoing it, naming the field', () => {
		const result = credentialHmacKeys('standardWebhooks', secrets('whsec_not*base64'));
		expect(result).toMatchObject({ ok: false, problem: expect.stringMatching(/^The Webhook/) });
		expect(JSON.stringify(result)).not.toContain('not*base64');
		expect(
			credentialHmacKeys('standardWebhooks', secrets('whsec_AAAA', 'not*base64')),
		).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^The Previous Signing Secret is not/),
		});
		expect(credentialHmacKeys('stripe', secrets('whsec_not*base64'))).toMatchObject({ ok: true });
	});
});

describe('checkTimestamp', () => {
	const now = Date.UTC(2026, 0, 1);
	const seconds = now / 1000;

	it.each([
		[String(seconds), 'auto', true],
		[String(now), 'auto', true],
		[String(now), 'milliseconds', true],
		[String(seconds), 'milliseconds', 'stale-timestamp'],
		[String(now), 'seconds', 'future-timestamp'],
		[String(seconds - 61), 'seconds', 'stale-timestamp'],
		[String(now + 61_000), 'auto', 'future-timestamp'],
		['', 'auto', 'malformed-header'],
		['1e9', 'auto', 'malformed-header'],
		['12345678901234567', 'auto', 'malformed-header'],
	] as const)('%s read as %s with 60 s tolerance: %s', (value, unit, expected) => {
		const result = checkTimestamp(value, 60, unit, now);
		expect(result.ok ? true : result.reason).toBe(expected);
	});
});
