import { createHmac, timingSafeEqual } from 'node:crypto';

import type { RejectionReason } from './refusedDelivery';
import type { SignatureScheme } from './description';
import type { TriggerOptions, TriggerSettings } from './settings';

/** `secretIndex`: 0 for the current secret, 1 the previous. Verifiers never throw, on any input. */
export type Verification =
	| { ok: true; eventId?: string; timestampMs?: number; secretIndex?: number }
	| { ok: false; reason: RejectionReason };

/** By secret, current first; `first`, the last to match, is tried first: a sender keeps to one. */
export type HmacKeys = { readonly bySecret: ReadonlyArray<Buffer | undefined>; first: number };

export type HeaderMap = Record<string, string | string[] | undefined>;
export type Delivery = { rawBody: Buffer; headers: HeaderMap };

type Verifier = (
	settings: TriggerOptions,
	delivery: Delivery,
	hmacKeys: HmacKeys,
	now: number,
) => Verification;

/** Standard Webhooks: `webhook-signature`'s `v1,<base64>` HMAC-SHA256s of `<id>.<ts>.<body>`. */
export const verifyStandardWebhook: Verifier = (...args) => {
	const header = (name: string) => headerValue(args[1].headers, `webhook-${name}`);
	const [id, timestamp, signature] = [header('id'), header('timestamp'), header('signature')];
	if (!id || !timestamp || !signature) return { ok: false, reason: 'missing-header' };
	// A scan, not split/map/filter: this runs per delivery and those arrays were a tenth of its cost.
	const candidates: Buffer[] = [];
	for (let start = 0; start < signature.length; ) {
		const space = signature.indexOf(' ', start);
		const end = space < 0 ? signature.length : space;
		if (signature.startsWith('v1,', start)) {
			// As the reference library reads `v1,<sig>[,…]`: up to the next comma, if any.
			const comma = signature.indexOf(',', start + 3);
			const value = signature.slice(start + 3, comma < 0 || comma > end ? end : comma);
			const decoded = decodeSignature(value, 'base64');
			if (decoded) candidates.push(decoded);
		}
		start = end + 1;
	}
	return verifyTimed(args, timestamp, candidates, `${id}.${timestamp}.`, id);
};

/** Stripe's scheme: `t=<timestamp>,v1=<hex>[,v1=<hex>]`, an HMAC-SHA256 of `<t>.<raw body>`. */
export const verifyStripeSignature: Verifier = (...args) => {
	const header = headerValue(args[1].headers, args[0].stripeHeaderName);
	if (!header) return { ok: false, reason: 'missing-header' };
	const timestamps: string[] = [];
	const candidates: Buffer[] = [];
	for (const field of header.split(',')) {
		// `name=value`, the value read up to a further `=` as Stripe's own library reads it.
		const [name, value = ''] = field.trim().split('=', 2);
		if (name === 't') timestamps.push(value);
		const signature = name === 'v1' && decodeSignature(value, 'hex');
		if (signature) candidates.push(signature);
	}
	if (timestamps.length !== 1) return { ok: false, reason: 'malformed-header' };
	return verifyTimed(args, timestamps[0], candidates, `${timestamps[0]}.`);
};

/** GitHub-style HMACs of the raw body in one header; untimestamped: only dedupe stops a replay. */
export const verifyHmacHeader: Verifier = (settings, { rawBody, headers }, hmacKeys) => {
	const header = headerValue(headers, settings.hmacHeaderName);
	if (!header) return { ok: false, reason: 'missing-header' };
	const prefix = settings.hmacPrefix.toLowerCase();
	const candidates = header
		.split(/[\s,]+/)
		.filter((entry) => entry.toLowerCase().startsWith(prefix))
		.flatMap((entry) => decodeSignature(entry.slice(prefix.length), settings.hmacEncoding) ?? []);
	return verifySigned(hmacKeys, settings.hmacAlgorithm, rawBody, candidates);
};

const VERIFIERS: Record<SignatureScheme, Verifier> = {
	standardWebhooks: verifyStandardWebhook,
	stripe: verifyStripeSignature,
	hmacHeader: verifyHmacHeader,
	none: () => ({ ok: true }),
};

/** Runs the verifier of the configured scheme; `none` accepts everything, by the user's choice. */
export const verifyDelivery = (
	settings: TriggerSettings,
	delivery: Delivery,
	hmacKeys: HmacKeys,
	now = Date.now(),
) => VERIFIERS[settings.signatureScheme](settings, delivery, hmacKeys, now);

/** A header by case-insensitive name; repeated headers are joined the way Node joins them. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return Array.isArray(value) ? value.join(', ') : value;
}

function verifyTimed(
	[{ toleranceSeconds, timestampUnit }, { rawBody }, hmacKeys, now]: Parameters<Verifier>,
	timestamp: string,
	candidates: Buffer[],
	signedPrefix: string,
	eventId?: string,
): Verification {
	if (candidates.length === 0) return { ok: false, reason: 'malformed-header' };
	const time = checkTimestamp(timestamp, toleranceSeconds, timestampUnit, now);
	if (!time.ok) return time;
	const signed = verifySigned(hmacKeys, 'sha256', rawBody, candidates, signedPrefix);
	return signed.ok ? { ...signed, eventId, timestampMs: time.ms } : signed;
}

/** Accepts a timestamp within `toleranceSeconds` of `now` either way: a sender clock ahead too. */
export function checkTimestamp(
	value: string,
	toleranceSeconds: number,
	unit: TriggerOptions['timestampUnit'],
	now: number,
): { ok: true; ms: number } | Extract<Verification, { ok: false }> {
	if (!/^\d{1,16}$/.test(value)) return { ok: false, reason: 'malformed-header' };
	const number = Number(value);
	// 1e10 seconds is the year 2286, 1e10 ms April 1970: the cut n8n's own signature helper uses.
	const inMilliseconds = unit === 'milliseconds' || (unit === 'auto' && number > 1e10);
	// Whole seconds for second timestamps, as the Standard Webhooks library and n8n's helper count.
	const scale = inMilliseconds ? 1 : 1000;
	const age = Math.floor(now / scale) - number;
	const tolerance = (toleranceSeconds * 1000) / scale;
	if (age > tolerance) return { ok: false, reason: 'stale-timestamp' };
	if (-age > tolerance) return { ok: false, reason: 'future-timestamp' };
	return { ok: true, ms: number * scale };
}

/** Which secret's HMAC of `<signedPrefix><body>` is a candidate, the last to match tried first. */
function verifySigned(
	hmacKeys: HmacKeys,
	algorithm: TriggerOptions['hmacAlgorithm'],
	body: Buffer,
	candidates: Buffer[],
	signedPrefix = '',
): Verification {
	if (candidates.length === 0) return { ok: false, reason: 'malformed-header' };
	const { bySecret } = hmacKeys;
	let reason: RejectionReason = 'no-secret';
	for (let step = 0; step < bySecret.length; step++) {
		const secretIndex = (hmacKeys.first + step) % bySecret.length;
		const hmacKey = bySecret[secretIndex];
		if (!hmacKey) continue;
		reason = 'signature-mismatch';
		const expected = createHmac(algorithm, hmacKey).update(signedPrefix).update(body).digest();
		// Constant-time, each candidate in full; a digest's length is public: checking it leaks none.
		const same = (candidate: Buffer) =>
			candidate.length === expected.length && timingSafeEqual(candidate, expected);
		if (candidates.filter(same).length > 0) {
			hmacKeys.first = secretIndex;
			return { ok: true, secretIndex };
		}
	}
	return { ok: false, reason };
}

function decodeSignature(value: string, encoding: TriggerOptions['hmacEncoding']) {
	// An even count of hex digits is checked apart: a grouped regex was slower.
	const valid =
		encoding === 'hex'
			? value.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(value)
			: /^[A-Za-z0-9+/]+={0,2}$/.test(value);
	return valid ? Buffer.from(value, encoding) : undefined;
}
