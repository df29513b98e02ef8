// Rolling one-second window per API key; only accepted requests count.

const WINDOW_MS = 1000;

/** An accepted request leaves `remaining` in the window; the next slot frees in `resetMs`. */
export type RateDecision =
	| { ok: true; remaining: number; resetMs: number }
	| { ok: false; retryAfterMs: number };

export class RateLimiter {
	private hits = new Map<string, number[]>();

	constructor(public perSecond: number | null) {}

	take(apiKey: string, now = Date.now()): RateDecision {
		if (this.perSecond === null) return { ok: true, remaining: Infinity, resetMs: 0 };
		const recent = (this.hits.get(apiKey) ?? []).filter((t) => t > now - WINDOW_MS);
		this.hits.set(apiKey, recent);
		if (recent.length >= this.perSecond) {
			return { ok: false, retryAfterMs: recent[recent.length - this.perSecond] + WINDOW_MS - now };
		}
		recent.push(now);
		return {
			ok: true,
			remaining: this.perSecond - recent.length,
			resetMs: recent[0] + WINDOW_MS - now,
		};
	}

	/** A new limit counts the requests already accepted in the window, as a live API would. */
	setLimit(perSecond: number | null): void {
		this.perSecond = perSecond;
	}

	reset(perSecond: number | null): void {
		this.perSecond = perSecond;
		this.hits.clear();
	}
}
