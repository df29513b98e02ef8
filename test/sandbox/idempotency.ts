// Idempotency-Key handling: per organization and key, replay the first stored response: a 2xx,
// and in replay-refusals mode also a definitive refusal.
import { canonicalJson } from './canonicalJson';
import { ApiError } from './errors';
import type { OrgId } from './types';

export interface StoredResponse {
	status: number;
	/** Serialized once, so a replay is byte-identical to the first response. */
	body: string;
}

type Entry =
	| { fingerprint: string; response?: undefined }
	| { fingerprint: string; response: StoredResponse };

export type Reservation =
	| { kind: 'replay'; response: StoredResponse }
	| { kind: 'new'; complete(response: StoredResponse, replayRefusals: boolean): void };

/**
 * Whether an answer given after the key was reserved is kept for replay: a 2xx always; in
 * replay-refusals mode (sandbox choice, as Stripe does) also a 4xx other than 409 and 429, which a
 * retry cannot change. 409, 429 and 5xx are never kept: the key is free again.
 */
export function isStoredStatus(status: number, replayRefusals: boolean): boolean {
	if (status >= 200 && status < 300) return true;
	return replayRefusals && status >= 400 && status < 500 && status !== 409 && status !== 429;
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
	return `${method} ${path} ${canonicalJson(body)}`;
}

export class IdempotencyStore {
	private entries = new Map<string, Entry>();

	/**
	 * Claims the key for this request, or answers with the stored response. A request whose answer is
	 * not stored (isStoredStatus) frees the key again, so a corrected retry with the same key can
	 * succeed.
	 */
	reserve(org: OrgId, key: string, fingerprint: string): Reservation {
		const id = `${org}\u0000${key}`;
		const existing = this.entries.get(id);
		if (existing && existing.fingerprint !== fingerprint) {
			throw new ApiError(
				409,
				'IDEMPOTENCY_KEY_REUSED',
				'This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request.',
			);
		}
		if (existing?.response) return { kind: 'replay', response: existing.response };
		if (existing) {
			throw new ApiError(
				409,
				'IDEMPOTENCY_REQUEST_IN_PROGRESS',
				'A request with this Idempotency-Key is still being processed. Retry after it has finished.',
			);
		}
		this.entries.set(id, { fingerprint });
		return {
			kind: 'new',
			complete: (response, replayRefusals) => {
				if (isStoredStatus(response.status, replayRefusals)) {
					this.entries.set(id, {
						fingerprint,
						response: { status: response.status, body: response.body },
					});
				} else {
					this.entries.delete(id);
				}
			},
		};
	}

	get size(): number {
		return this.entries.size;
	}

	clear(): void {
		this.entries.clear();
	}
}
