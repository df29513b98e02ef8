import { ProcessMap } from '../shared/processMap';
import type { SignatureScheme } from './description';
import type { Misconfiguration } from './settings';
import type { HmacKeys, Verification } from './signature';

export type SecretCacheEntry = { hmacKeys: CredentialHmacKeys; readAt: number };

export type CredentialHmacKeys =
	| { ok: true; hmacKeys: HmacKeys }
	| { ok: false; problem: Misconfiguration };

/** The fields of the Partner Logistics API credential the trigger reads. */
export type SigningSecrets = {
	webhookSigningSecret?: unknown;
	previousWebhookSigningSecret?: unknown;
};

/** The trigger's credential: without an id it is read (a database read, decryption) every time. */
export interface TriggerCredential {
	scheme: SignatureScheme;
	id: string | null | undefined;
	read(): Promise<SigningSecrets>;
}

/** Why HMAC keys are wanted; `fresh` (test event, publishing): the user may have just edited it. */
export type HmacKeysWanted = 'delivery' | 'mismatch' | 'fresh';

/** A credential edit applies within a minute; after a mismatch, or if broken, within 5 s. */
export const HMAC_KEYS_REUSED_FOR_MS = 60_000;
export const HMAC_KEYS_REREAD_AFTER_MS = 5_000;

/** As `standardwebhooks` 1.1.1 (`@stablelib/base64`) reads a secret; undefined where it throws. */
export function standardWebhooksHmacKey(secret: string): Buffer | undefined {
	const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	const unpadded = encoded.replace(/=+$/, '');
	if (encoded.length < 4 || encoded.length - unpadded.length > 2) return undefined;
	// As there, a lone character after the last full group of four is ignored unchecked.
	const usable = unpadded.length % 4 === 1 ? unpadded.slice(0, -1) : unpadded;
	return /^[A-Za-z0-9+/]*$/.test(usable) ? Buffer.from(usable, 'base64') : undefined;
}

/** The secrets' HMAC keys; Stripe-style and plain HMAC senders key with the text, `whsec_` too. */
export function deriveHmacKeys(secrets: readonly string[], scheme: SignatureScheme): HmacKeys {
	const hmacKeyOf = (secret: string) =>
		scheme === 'standardWebhooks' ? standardWebhooksHmacKey(secret) : Buffer.from(secret);
	return { bySecret: secrets.map(hmacKeyOf), first: 0 };
}

/** The secrets' HMAC keys (trimmed), current first; none usable is a problem, never a pass. */
export function credentialHmacKeys(
	scheme: SignatureScheme,
	credential: SigningSecrets,
): CredentialHmacKeys {
	if (scheme === 'none') return { ok: true, hmacKeys: deriveHmacKeys([], scheme) };
	const trimmed = (secret: unknown) => (typeof secret === 'string' ? secret.trim() : '');
	const current = trimmed(credential.webhookSigningSecret);
	const previous = trimmed(credential.previousWebhookSigningSecret);
	if (current === '')
		return unusable(
			'The Partner Logistics API credential has no Webhook Signing Secret',
			'Paste the secret the partner portal shows for this webhook, or set Signature Scheme to None (not recommended).',
		);
	const hmacKeys = deriveHmacKeys(previous ? [current, previous] : [current], scheme);
	const broken = hmacKeys.bySecret.indexOf(undefined);
	if (broken < 0) return { ok: true, hmacKeys };
	const field = broken === 0 ? 'Webhook Signing Secret' : 'Previous Signing Secret';
	return unusable(
		`The ${field} is not a Standard Webhooks secret (whsec_ followed by base64; the prefix may be left out)`,
		'Copy it again from the partner portal, or choose the Signature Scheme the partner uses.',
	);
}

function unusable(message: string, description: string): CredentialHmacKeys {
	return { ok: false, problem: { message, description } };
}

/** HMAC keys per credential and scheme: a delivery costs no credential read nor derivation. */
export class SecretCache {
	constructor(
		private readonly clock: () => number = Date.now,
		private readonly entries = new ProcessMap<SecretCacheEntry>('HMAC keys', { max: 1_000 }),
	) {}

	async hmacKeys(credential: TriggerCredential, wanted: HmacKeysWanted) {
		if (credential.scheme === 'none') return credentialHmacKeys('none', {});
		const id = credential.id ? `${credential.scheme}/${credential.id}` : undefined;
		const now = this.clock();
		const cached = id === undefined ? undefined : this.entries.get(id);
		const reusable = wanted === 'delivery' && cached?.hmacKeys.ok;
		const maxAgeMs = reusable ? HMAC_KEYS_REUSED_FOR_MS : HMAC_KEYS_REREAD_AFTER_MS;
		if (cached && wanted !== 'fresh' && now - cached.readAt < maxAgeMs) return cached.hmacKeys;
		const secrets = await credential.read().catch((error: Error) => error);
		if (secrets instanceof Error)
			return unusable('The Partner Logistics API credential could not be read', secrets.message);
		const hmacKeys = credentialHmacKeys(credential.scheme, secrets);
		if (id !== undefined) this.entries.set(id, { hmacKeys, readAt: now });
		return hmacKeys;
	}

	/** Verifies with the keys this cache gave; a mismatch re-reads: a new secret may be saved. */
	async verify(
		credential: TriggerCredential,
		given: Extract<CredentialHmacKeys, { ok: true }>,
		check: (hmacKeys: HmacKeys) => Verification,
	): Promise<Verification | Extract<CredentialHmacKeys, { ok: false }>> {
		const verification = check(given.hmacKeys);
		if (verification.ok || verification.reason !== 'signature-mismatch') return verification;
		const reread = await this.hmacKeys(credential, 'mismatch');
		if (reread === given) return verification;
		return reread.ok ? check(reread.hmacKeys) : reread;
	}
}
