import { createHmac, timingSafeEqual } from 'node:crypto';

import type { HmacKeys } from './hmacKeys';
import type { HmacAlgorithm, HmacEncoding, TriggerSettings } from './settings';
import { checkTimestamp, type TimestampUnit } from './timestamp';

/** Why a delivery was refused: for the log and the editor, never for the sender. */
export type RejectionReason =
	| 'no-secret'
	| 'missing-header'
	| 'malformed-header'
	| 'stale-timestamp'
	| 'future-timestamp'
	| 'signature-mismatch';

/** `secretIndex`: 0 for the current secret, 1 the previous. Verifiers never throw, on any input. */
export type Verification =
	| { ok: true; eventId?: string; timestampMs?: number; secretIndex?: number }
	| { ok: false; reason: RejectionReason };

export type HeaderMap = Record<string, string | string[] | undefined>;

/** A request as received: the raw bytes that were signed, and the headers. */
export interface Delivery {
	rawBody: Buffer;
	headers: HeaderMap;
}

interface TimedInput {
	rawBody: Buffer;
	/** The keys of the current secret, then of the previous one during rotation. */
	hmacKeys: HmacKeys;
	toleranceSeconds: number;
	timestampUnit?: TimestampUnit;
	now?: number;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Hex digits; an even count is checked apart (a grouped regex was slower). */
const HEX = /^[0-9a-fA-F]+$/;

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-signature` holds space-separated `v1,<base64>`
 * entries, each an HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`.
 */
export function verifyStandardWebhook(input: TimedInput & { headers: HeaderMap }): Verification {
	const id = headerValue(input.headers, 'webhook-id');
	const timestamp = headerValue(input.headers, 'webhook-timestamp');
	const signature = headerValue(input.headers, 'webhook-signature');
	if (!id || !timestamp || !signature) return rejected('missing-header');
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
	return verifyTimed(input, timestamp, candidates, `${id}.${timestamp}.`, id);
}

/** Stripe's scheme: `t=<timestamp>,v1=<hex>[,v1=<hex>]`, an HMAC-SHA256 of `<t>.<raw body>`. */
export function verifyStripeSignature(input: TimedInput & { header?: string }): Verification {
	if (!input.header) return rejected('missing-header');
	let timestamp = '';
	let timestamps = 0;
	const candidates: Buffer[] = [];
	for (const field of input.header.split(',')) {
		// `key=value`, the value read up to a further `=` as Stripe's own library reads it.
		const [name, value = ''] = field.trim().split('=', 2);
		if (name === 't') {
			timestamp = value;
			timestamps++;
		} else if (name === 'v1') {
			const signature = decodeSignature(value, 'hex');
			if (signature) candidates.push(signature);
		}
	}
	if (timestamps !== 1) return rejected('malformed-header');
	return verifyTimed(input, timestamp, candidates, `${timestamp}.`);
}

/**
 * An HMAC of the raw body alone in one header (GitHub-style), several separated by commas or
 * spaces. Untimestamped: only event-id deduplication stands between a capture and its replay.
 */
export function verifyHmacHeader(input: {
	rawBody: Buffer;
	header?: string;
	hmacKeys: HmacKeys;
	algorithm: HmacAlgorithm;
	encoding: HmacEncoding;
	prefix?: string;
}): Verification {
	if (!input.header) return rejected('missing-header');
	const prefix = (input.prefix ?? '').toLowerCase();
	const candidates = input.header
		.split(/[\s,]+/)
		.filter((entry) => entry !== '' && entry.toLowerCase().startsWith(prefix))
		.map((entry) => decodeSignature(entry.slice(prefix.length), input.encoding))
		.filter((candidate): candidate is Buffer => candidate !== undefined);
	return verifySigned(input.hmacKeys, input.algorithm, input.rawBody, candidates);
}

/** Runs the verifier of the configured scheme; `none` accepts everything, by the user's choice. */
export function verifyDelivery(
	settings: TriggerSettings,
	delivery: Delivery,
	hmacKeys: HmacKeys,
	now = Date.now(),
): Verification {
	const { rawBody, headers } = delivery;
	const { toleranceSeconds, timestampUnit } = settings;
	const timed = { rawBody, hmacKeys, toleranceSeconds, timestampUnit, now };
	switch (settings.signatureScheme) {
		case 'standardWebhooks':
			return verifyStandardWebhook({ ...timed, headers });
		case 'stripe':
			return verifyStripeSignature({
				...timed,
				header: headerValue(headers, settings.stripeHeaderName),
			});
		case 'hmacHeader':
			return verifyHmacHeader({
				rawBody,
				hmacKeys,
				header: headerValue(headers, settings.hmacHeaderName),
				algorithm: settings.hmacAlgorithm,
				encoding: settings.hmacEncoding,
				prefix: settings.hmacPrefix,
			});
		case 'none':
			return { ok: true };
	}
}

/** A header by case-insensitive name; repeated headers are joined the way Node joins them. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return Array.isArray(value) ? value.join(', ') : value;
}

/** Checks the timestamp, then the HMAC of `<signedPrefix><raw body>` against the candidates. */
function verifyTimed(
	input: TimedInput,
	timestamp: string,
	candidates: Buffer[],
	signedPrefix: string,
	eventId?: string,
): Verification {
	if (candidates.length === 0) return rejected('malformed-header');
	const { toleranceSeconds, timestampUnit = 'auto', now = Date.now() } = input;
	const time = checkTimestamp(timestamp, toleranceSeconds, timestampUnit, now);
	if (!time.ok) return time;
	const signed = verifySigned(input.hmacKeys, 'sha256', input.rawBody, candidates, signedPrefix);
	return signed.ok ? { ...signed, eventId, timestampMs: time.ms } : signed;
}

const NO_KEY = -2;
const NO_MATCH = -1;

function verifySigned(
	hmacKeys: HmacKeys,
	algorithm: HmacAlgorithm,
	body: Buffer,
	candidates: Buffer[],
	signedPrefix = '',
): Verification {
	if (candidates.length === 0) return rejected('malformed-header');
	const secretIndex = matchingHmacKey(hmacKeys, algorithm, signedPrefix, body, candidates);
	if (secretIndex < 0) return rejected(secretIndex === NO_KEY ? 'no-secret' : 'signature-mismatch');
	return { ok: true, secretIndex };
}

/**
 * The index of the secret whose HMAC of `<signedPrefix><body>` is a candidate, the last match first
 * (and remembered); else NO_MATCH, or NO_KEY without keys. A number: this runs per delivery.
 */
function matchingHmacKey(
	signing: HmacKeys,
	algorithm: HmacAlgorithm,
	signedPrefix: string,
	body: Buffer,
	candidates: Buffer[],
): number {
	const { bySecret } = signing;
	let result = NO_KEY;
	for (let step = 0; step < bySecret.length; step++) {
		const secretIndex = (signing.first + step) % bySecret.length;
		const hmacKey = bySecret[secretIndex];
		if (!hmacKey) continue;
		result = NO_MATCH;
		const hmac = createHmac(algorithm, hmacKey);
		if (signedPrefix !== '') hmac.update(signedPrefix);
		if (matchesAny(hmac.update(body).digest(), candidates)) {
			signing.first = secretIndex;
			return secretIndex;
		}
	}
	return result;
}

/** Constant-time: every candidate is compared in full, whichever one matches. */
function matchesAny(expected: Buffer, candidates: Buffer[]): boolean {
	let matched = false;
	for (const candidate of candidates) {
		// A digest's length is public (the algorithm's), so checking it first leaks nothing.
		if (candidate.length === expected.length && timingSafeEqual(candidate, expected))
			matched = true;
	}
	return matched;
}

function decodeSignature(value: string | undefined, encoding: HmacEncoding): Buffer | undefined {
	if (!value) return undefined;
	const valid = encoding === 'hex' ? value.length % 2 === 0 && HEX.test(value) : BASE64.test(value);
	return valid ? Buffer.from(value, encoding) : undefined;
}

function rejected(reason: RejectionReason): Verification {
	return { ok: false, reason };
}
