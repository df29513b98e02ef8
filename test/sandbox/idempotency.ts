// Idempotency-Key handling: per organization and key, replay the first successful response.
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
	| { kind: 'new'; complete(response: StoredResponse): void };

export function requestFingerprint(method: string, path: string, body: unknown): string {
	return `${method} ${path} ${canonicalJson(body)}`;
}

export class IdempotencyStore {
	private entries = new Map<string, Entry>();

	/**
	 * Claims the key for this request, or answers with the stored response. A request that ends in
	 * anything but 2xx frees the key again, so a corrected retry with the same key can succeed.
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
			complete: (response) => {
				if (response.status >= 200 && response.status < 300) {
					this.entries.set(id, { fingerprint, response });
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
