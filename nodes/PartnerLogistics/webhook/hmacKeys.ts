import type { SignatureScheme } from './settings';

/** How a scheme turns a secret into HMAC key bytes. */
export type HmacKeyFormat = 'standardWebhooks' | 'text';

/** The secrets' HMAC keys, current first, derived per credential read; `undefined`: none. */
export interface HmacKeys {
	readonly bySecret: ReadonlyArray<Buffer | undefined>;
	/** Tried first: the last to match. Mid-rotation a sender keeps to one secret: 1 HMAC, not 2. */
	first: number;
}

const STANDARD_WEBHOOKS_PREFIX = 'whsec_';
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*$/;

/**
 * A Standard Webhooks secret's key as `standardwebhooks` 1.1.1 (`@stablelib/base64`) reads it: an
 * optional `whsec_`, then base64; none where it throws (another alphabet, under 4 characters, over
 * 2 `=`). As there, a lone character after the last full group of four is ignored, unchecked.
 */
export function standardWebhooksHmacKey(secret: string): Buffer | undefined {
	const encoded = secret.startsWith(STANDARD_WEBHOOKS_PREFIX)
		? secret.slice(STANDARD_WEBHOOKS_PREFIX.length)
		: secret;
	const unpadded = encoded.replace(/=+$/, '');
	if (encoded.length < 4 || encoded.length - unpadded.length > 2) return undefined;
	const usable = unpadded.length % 4 === 1 ? unpadded.slice(0, -1) : unpadded;
	return BASE64_ALPHABET.test(usable) ? Buffer.from(usable, 'base64') : undefined;
}

/** Stripe-style and plain HMAC senders key with the secret's text, `whsec_` included. */
export function textHmacKey(secret: string): Buffer | undefined {
	return secret === '' ? undefined : Buffer.from(secret, 'utf8');
}

/** Standard Webhooks keys with the base64-decoded secret; the other schemes with its text. */
export function hmacKeyFormat(scheme: SignatureScheme): HmacKeyFormat {
	return scheme === 'standardWebhooks' ? 'standardWebhooks' : 'text';
}

export function deriveHmacKeys(secrets: readonly string[], format: HmacKeyFormat): HmacKeys {
	const keyOf = format === 'standardWebhooks' ? standardWebhooksHmacKey : textHmacKey;
	return { bySecret: secrets.map((secret) => keyOf(secret)), first: 0 };
}
