import { processMap, type ProcessMap } from '../shared/processMemory';
import { deriveHmacKeys, hmacKeyFormat, type HmacKeys } from './hmacKeys';
import type { SignatureScheme } from './settings';
import type { Verification } from './signature';

/** The keys to verify with, or the configuration problem that leaves none (told to the user). */
export type CredentialHmacKeys = { ok: true; hmacKeys: HmacKeys } | { ok: false; problem: string };

/** The fields of the Partner Logistics API credential the trigger reads. */
export interface SigningSecrets {
	webhookSigningSecret?: unknown;
	previousWebhookSigningSecret?: unknown;
}

/** The trigger's credential, as the cache sees it. */
export interface TriggerCredential {
	scheme: SignatureScheme;
	/** n8n's id of the credential; a credential without one is read every time. */
	id: string | null | undefined;
	/** Reads it from n8n's credential store: a database read and a decryption. */
	read(): Promise<SigningSecrets>;
}

/** Why keys are wanted; `fresh` (a test event, publishing): the user may have just edited it. */
export type HmacKeysWanted = 'delivery' | 'mismatch' | 'fresh';

/** How long a delivery reuses the keys read from the credential: an edit applies within this. */
export const HMAC_KEYS_REUSED_FOR_MS = 60_000;
/** A signature mismatch, or a broken secret, reads the credential again after this. */
export const HMAC_KEYS_REREAD_AFTER_MS = 5_000;

const NO_SECRET =
	'The Partner Logistics API credential has no Webhook Signing Secret. Paste the secret the partner portal shows for this webhook, or set Signature Scheme to None (not recommended).';

/**
 * The keys of the credential's secrets (copy-and-paste whitespace trimmed), current first. A
 * signing scheme without a usable current secret is a problem naming the field, never a pass.
 */
export function credentialHmacKeys(
	scheme: SignatureScheme,
	credential: SigningSecrets,
): CredentialHmacKeys {
	if (scheme === 'none') return { ok: true, hmacKeys: deriveHmacKeys([], 'text') };
	const current = trimmed(credential.webhookSigningSecret);
	const previous = trimmed(credential.previousWebhookSigningSecret);
	if (current === '') return { ok: false, problem: NO_SECRET };
	const hmacKeys = deriveHmacKeys(
		previous === '' ? [current] : [current, previous],
		hmacKeyFormat(scheme),
	);
	const broken = hmacKeys.bySecret.indexOf(undefined);
	if (broken < 0) return { ok: true, hmacKeys };
	const field = broken === 0 ? 'Webhook Signing Secret' : 'Previous Signing Secret';
	const problem = `The ${field} is not a Standard Webhooks secret (whsec_ followed by base64; the prefix may be left out). Copy it again from the partner portal, or choose the Signature Scheme the partner uses.`;
	return { ok: false, problem };
}

function trimmed(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Derived keys per credential and scheme, so a delivery costs no store read nor derivation; a
 * broken secret is kept HMAC_KEYS_REREAD_AFTER_MS only (being fixed), an unreadable credential never.
 */
export class SecretCache {
	private readonly entries: ProcessMap<{ hmacKeys: CredentialHmacKeys; readAt: number }>;

	constructor(
		private readonly clock: () => number = Date.now,
		maxEntries = 1000,
	) {
		this.entries = processMap('webhook signing hmacKeys, by credential', { max: maxEntries });
	}

	async hmacKeys(
		credential: TriggerCredential,
		wanted: HmacKeysWanted,
	): Promise<CredentialHmacKeys> {
		if (credential.scheme === 'none') return credentialHmacKeys('none', {});
		const id = credential.id ? `${credential.scheme}/${credential.id}` : undefined;
		const now = this.clock();
		const cached = id === undefined ? undefined : this.entries.get(id);
		if (cached && now - cached.readAt < maxAgeMs(wanted, cached.hmacKeys.ok))
			return cached.hmacKeys;
		let secrets: SigningSecrets;
		try {
			secrets = await credential.read();
		} catch (error) {
			const reason = (error as Error).message;
			const problem = `The Partner Logistics API credential could not be read: ${reason}`;
			return { ok: false, problem };
		}
		const hmacKeys = credentialHmacKeys(credential.scheme, secrets);
		if (id !== undefined) this.entries.set(id, { hmacKeys, readAt: now });
		return hmacKeys;
	}

	/**
	 * Verifies with the HMAC keys `given`, which this cache gave. A mismatch reads the credential again (at most
	 * every HMAC_KEYS_REREAD_AFTER_MS) and verifies with any new keys: a new secret may just be saved.
	 */
	async verify(
		credential: TriggerCredential,
		given: Extract<CredentialHmacKeys, { ok: true }>,
		check: (hmacKeys: HmacKeys) => Verification,
	): Promise<Verification | { ok: false; problem: string }> {
		const verification = check(given.hmacKeys);
		if (verification.ok || verification.reason !== 'signature-mismatch') return verification;
		const reread = await this.hmacKeys(credential, 'mismatch');
		if (reread === given) return verification;
		return reread.ok ? check(reread.hmacKeys) : reread;
	}
}

function maxAgeMs(wanted: HmacKeysWanted, usable: boolean): number {
	if (wanted === 'fresh') return 0;
	return wanted === 'delivery' && usable ? HMAC_KEYS_REUSED_FOR_MS : HMAC_KEYS_REREAD_AFTER_MS;
}
