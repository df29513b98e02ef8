/** Faults of an answer that did not come, or not whole, within n8n's Timeout. */
export const TIMEOUT_FAULTS = [
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'E_ANSWER_STALLED',
];
/** Faults worth another try with the same Idempotency-Key: not setup faults, not a huge answer. */
const TRANSIENT_FAULTS = ['ECONNRESET', 'EPIPE', 'EAI_AGAIN', ...TIMEOUT_FAULTS];
/** The longest Retry-After waited out; a longer one is told to the user. */
export const MAX_RETRY_DELAY_MS = 60_000;

export type Outcome =
	| { kind: 'status'; status: number; retryAfter?: string }
	| { kind: 'fault'; code: string };

export interface RetryBudget {
	/** Retries of 429 and 503, which come with Retry-After. */
	maxRetries: number;
	/** Retries of connection faults, timeouts, 502 and 504. */
	faultRetries: number;
	/** False: a timed-out attempt is not retried (a poll's: the next poll is its retry). */
	retryTimeouts?: boolean;
	/** The longest a request waits for retries in all (a tool call's); else a minute per wait. */
	patienceMs?: number;
}

export type RetryDecision =
	| { retry: true; delayMs: number }
	| { retry: false; reason: 'not-retryable' | 'budget' | 'retry-after-too-long'; waitMs?: number };

const backoff = (firstMs: number, retries: number) => Math.min(firstMs * 2 ** retries, 30_000);

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const trimmed = value?.trim();
	if (!trimmed) return undefined;
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** One request's retries; its API key's pacer (rateLimit/) paces the batch, from the same 429s. */
export class Retries {
	busyRetries = 0;
	faultRetries = 0;
	private waitedMs = 0;
	constructor(
		private readonly budget: RetryBudget,
		private readonly random = Math.random,
	) {}

	get count(): number {
		return this.busyRetries + this.faultRetries;
	}

	/** 429/503 wait as Retry-After asks (seconds or a date) or back off from 1 s; faults from 500 ms. */
	decide(outcome: Outcome, now = Date.now()): RetryDecision {
		const { budget } = this;
		const jitter = Math.floor(this.random() * 250);
		const patienceLeft = (budget.patienceMs ?? Infinity) - this.waitedMs;
		if (outcome.kind === 'status' && [429, 503].includes(outcome.status)) {
			if (this.busyRetries >= budget.maxRetries) return { retry: false, reason: 'budget' };
			const asked = parseRetryAfter(outcome.retryAfter, now);
			// Retry-After is the API's own wait: a little jitter is enough, the pacer spaces the starts.
			const delayMs =
				asked !== undefined
					? asked + Math.floor(jitter / 5)
					: backoff(1000, this.busyRetries) + jitter;
			if ((asked ?? 0) > MAX_RETRY_DELAY_MS || delayMs > patienceLeft)
				return { retry: false, reason: 'retry-after-too-long', waitMs: asked ?? delayMs };
			this.busyRetries++;
			this.waitedMs += delayMs;
			return { retry: true, delayMs };
		}
		// A 409 right after our own attempt broke off is most likely that attempt, still in progress
		// under the same Idempotency-Key: wait for it like a fault. Any other 409 is a real conflict.
		const transient =
			outcome.kind === 'fault'
				? TRANSIENT_FAULTS.includes(outcome.code) &&
					(budget.retryTimeouts !== false || !TIMEOUT_FAULTS.includes(outcome.code))
				: [502, 504].includes(outcome.status) || // a gateway: the request may have reached the API
					(outcome.status === 409 && this.faultRetries > 0);
		if (!transient) return { retry: false, reason: 'not-retryable' };
		const delayMs = backoff(500, this.faultRetries) + jitter;
		if (this.faultRetries >= budget.faultRetries || delayMs > patienceLeft)
			return { retry: false, reason: 'budget' };
		this.faultRetries++;
		this.waitedMs += delayMs;
		return { retry: true, delayMs };
	}
}
