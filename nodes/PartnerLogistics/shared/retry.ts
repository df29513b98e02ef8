/** Statuses the API asks us to come back later with: rate limit and temporary unavailability. */
export const RETRYABLE_STATUSES = [429, 503];

/** The longest wait we accept from Retry-After before giving up and telling the user. */
export const MAX_RETRY_DELAY_MS = 60_000;

export interface RetryInput {
	status: number;
	/** The raw Retry-After header: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
	retryAfter?: string;
	/** Retries already made for this request. */
	attempt: number;
	maxRetries: number;
	now?: number;
	random?: () => number;
}

/**
 * How long to wait before retrying, or null when the request must not be retried. Honours
 * Retry-After when the API sends it, else backs off exponentially (1 s, 2 s, 4 s …). A little
 * jitter keeps many items that were refused together from coming back together.
 */
export function retryDelayMs({
	status,
	retryAfter,
	attempt,
	maxRetries,
	now = Date.now(),
	random = Math.random,
}: RetryInput): number | null {
	if (!RETRYABLE_STATUSES.includes(status) || attempt >= maxRetries) return null;
	const asked = parseRetryAfter(retryAfter, now);
	const base = asked ?? Math.min(1000 * 2 ** attempt, 30_000);
	if (base > MAX_RETRY_DELAY_MS) return null;
	return base + Math.floor(random() * 250);
}

/** Milliseconds from a Retry-After value, or undefined when it is missing or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
