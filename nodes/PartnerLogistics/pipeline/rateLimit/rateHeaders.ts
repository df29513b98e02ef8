/** What an answer's rate-limit headers say, when it sends them (the spec shows none). */
export interface RateHeaders {
	/** X-RateLimit-Limit / RateLimit-Limit. */
	readonly limit?: number;
	/** X-RateLimit-Remaining / RateLimit-Remaining: what the API still takes before its reset. */
	readonly remaining?: number;
	/** When it takes more again: X-RateLimit-Reset / RateLimit-Reset, in ms from the answer. */
	readonly resetMs?: number;
}

/**
 * What an answer says of the key's limit, when it does (X-RateLimit-*, or RateLimit-* of the IETF
 * draft): the spec shows no rate-limit header, so each is only a hint the pacer checks. A reset
 * is seconds from now, or (above a billion) the epoch second it happens at.
 */
export function rateHeadersOf(
	headers: Record<string, string | undefined>,
	now = Date.now(),
): RateHeaders {
	const read = (name: string) => {
		const text = headers[`x-ratelimit-${name}`] ?? headers[`ratelimit-${name}`];
		const value = text === undefined || text.trim() === '' ? NaN : Number(text);
		return Number.isFinite(value) && value >= 0 ? value : undefined;
	};
	const limit = read('limit');
	const reset = read('reset');
	return {
		limit: limit !== undefined && limit >= 1 ? Math.floor(limit) : undefined,
		remaining: read('remaining'),
		resetMs: reset === undefined ? undefined : reset > 1e9 ? reset * 1000 - now : reset * 1000,
	};
}
