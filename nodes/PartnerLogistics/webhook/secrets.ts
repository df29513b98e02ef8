import { keyFormat, keyOf } from './keys';
import type { SignatureScheme } from './settings';

export type SecretsResult = { ok: true; secrets: string[] } | { ok: false; problem: string };

/**
 * The secrets to verify with, current first. A scheme that signs needs a current secret that
 * yields a key; anything else is a configuration problem for the user, never a silent pass.
 * Surrounding whitespace from a copy and paste is dropped. Messages name the credential field,
 * never its value.
 */
export function usableSecrets(
	scheme: SignatureScheme,
	current: unknown,
	previous: unknown,
): SecretsResult {
	if (scheme === 'none') return { ok: true, secrets: [] };
	const secrets: string[] = [];
	for (const [field, value] of [
		['Webhook Signing Secret', current],
		['Previous Signing Secret', previous],
	] as const) {
		const secret = typeof value === 'string' ? value.trim() : '';
		if (secret === '' && field === 'Previous Signing Secret') continue;
		if (secret === '') {
			return {
				ok: false,
				problem:
					'The Partner Logistics API credential has no Webhook Signing Secret. Paste the secret the partner portal shows for this webhook, or set Signature Scheme to None (not recommended).',
			};
		}
		if (!keyOf(secret, keyFormat(scheme))) {
			return {
				ok: false,
				problem: `The ${field} is not a Standard Webhooks secret (whsec_ followed by base64; the prefix may be left out). Copy it again from the partner portal, or choose the Signature Scheme the partner uses.`,
			};
		}
		secrets.push(secret);
	}
	return { ok: true, secrets };
}
