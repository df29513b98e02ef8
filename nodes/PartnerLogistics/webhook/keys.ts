import type { SignatureScheme } from './settings';

/** How a scheme turns a secret into HMAC key bytes. */
export type KeyFormat = 'standardWebhooks' | 'text';

const STANDARD_WEBHOOKS_PREFIX = 'whsec_';
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*$/;
/** Keyrings kept per process; more distinct secret sets than this means a cache miss, not a leak. */
const MAX_KEYRINGS = 100;

/**
 * A Standard Webhooks secret's key exactly as the reference library (`standardwebhooks` 1.1.1,
 * `@stablelib/base64`) reads it: an optional `whsec_` prefix, then standard base64. Where the
 * library throws (another alphabet, fewer than 4 characters, more than 2 `=`), there is no key.
 * Like the library, a lone character after the last full group of four is ignored, unchecked.
 */
export function standardWebhooksKey(secret: string): Buffer | undefined {
	const encoded = secret.startsWith(STANDARD_WEBHOOKS_PREFIX)
		? secret.slice(STANDARD_WEBHOOKS_PREFIX.length)
		: secret;
	const unpadded = encoded.replace(/=+$/, '');
	if (encoded.length < 4 || encoded.length - unpadded.length > 2) return undefined;
	const usable = unpadded.length % 4 === 1 ? unpadded.slice(0, -1) : unpadded;
	return BASE64_ALPHABET.test(usable) ? Buffer.from(usable, 'base64') : undefined;
}

/** Stripe-style and plain HMAC senders key with the secret's text, `whsec_` included. */
export function textKey(secret: string): Buffer | undefined {
	return secret === '' ? undefined : Buffer.from(secret, 'utf8');
}

/** Standard Webhooks keys with the base64-decoded secret; the other schemes with its text. */
export function keyFormat(scheme: SignatureScheme): KeyFormat {
	return scheme === 'standardWebhooks' ? 'standardWebhooks' : 'text';
}

export function keyOf(secret: string, format: KeyFormat): Buffer | undefined {
	return format === 'standardWebhooks' ? standardWebhooksKey(secret) : textKey(secret);
}

/**
 * The keys of one secret list (current first, then previous), decoded once. During a rotation a
 * sender signs with one secret for a stretch, so verification starts with the key that matched
 * last (`first`): one HMAC per delivery instead of two.
 */
export class Keyring {
	first = 0;
	/** Whether any secret yields a key. */
	readonly usable: boolean;

	constructor(
		readonly format: KeyFormat,
		readonly keys: ReadonlyArray<Buffer | undefined>,
	) {
		this.usable = keys.some((key) => key !== undefined);
	}
}

const keyrings = new Map<string, Keyring>();
/** The trigger hands over the same (never modified) secret list per delivery: found without a join. */
const keyringsByList = new WeakMap<readonly string[], Keyring>();

/** The cached keyring of these secrets, built on first use. */
export function keyringFor(secrets: readonly string[], format: KeyFormat): Keyring {
	const known = keyringsByList.get(secrets);
	if (known?.format === format) return known;
	const id = `${format}\n${secrets.join('\n')}`;
	let keyring = keyrings.get(id);
	if (keyring === undefined) {
		if (keyrings.size >= MAX_KEYRINGS) keyrings.delete(keyrings.keys().next().value as string);
		keyring = new Keyring(
			format,
			secrets.map((secret) => keyOf(secret, format)),
		);
		keyrings.set(id, keyring);
	}
	keyringsByList.set(secrets, keyring);
	return keyring;
}
