/** Statuses the API asks us to come back later with: rate limit and temporary unavailability. */
export const BUSY_STATUSES = [429, 503];
/** Gateway failures: the request may or may not have reached the API. */
export const GATEWAY_STATUSES = [502, 504];
/** Faults of an answer that did not come, or not whole, within n8n's Timeout. */
export const TIMEOUT_FAULTS = [
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'E_ANSWER_STALLED',
];
/** Faults worth another try with the same Idempotency-Key: not setup faults, not a huge answer. */
export const TRANSIENT_FAULTS = ['ECONNRESET', 'EPIPE', 'EAI_AGAIN', ...TIMEOUT_FAULTS];

/** The longest Retry-After waited out; a longer one is told to the user. */
export const MAX_RETRY_DELAY_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;

/** What one attempt came back with. */
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

/** A request's retries so far; any fault retry means the API may still be working on it. */
export interface RetryState {
	busyRetries: number;
	faultRetries: number;
	/** Waited so far for retries of this request. */
	waitedMs?: number;
}

export type RetryDecision =
	| { retry: true; delayMs: number; busy: boolean }
	| { retry: false; reason: 'not-retryable' | 'budget' | 'retry-after-too-long'; waitMs?: number };

/**
 * Whether and when to try again. 429/503 honour Retry-After (seconds or an HTTP date) or back off
 * exponentially; faults and gateway errors back off from 500 ms. A Retry-After past
 * MAX_RETRY_DELAY_MS or the patience left is never waited out silently: the caller says so.
 */
export function decideRetry(
	outcome: Outcome,
	state: RetryState,
	budget: RetryBudget,
	now = Date.now(),
	random = Math.random,
): RetryDecision {
	const jitter = Math.floor(random() * 250);
	if (outcome.kind === 'status' && BUSY_STATUSES.includes(outcome.status)) {
		if (state.busyRetries >= budget.maxRetries) return { retry: false, reason: 'budget' };
		const asked = parseRetryAfter(outcome.retryAfter, now);
		// Retry-After is the API's own wait: a little jitter is enough, the pacer spaces the starts.
		const delayMs =
			asked !== undefined
				? asked + Math.floor(jitter / 5)
				: backoff(1000, state.busyRetries) + jitter;
		if ((asked ?? 0) > MAX_RETRY_DELAY_MS || delayMs > patienceLeft(state, budget)) {
			return { retry: false, reason: 'retry-after-too-long', waitMs: asked ?? delayMs };
		}
		return { retry: true, delayMs, busy: true };
	}
	// A 409 right after our own attempt broke off is most likely that attempt, still in progress
	// under the same Idempotency-Key: wait for it like a fault. Any other 409 is a real conflict.
	const transient =
		outcome.kind === 'fault'
			? TRANSIENT_FAULTS.includes(outcome.code) &&
				(budget.retryTimeouts !== false || !TIMEOUT_FAULTS.includes(outcome.code))
			: GATEWAY_STATUSES.includes(outcome.status) ||
				(outcome.status === 409 && state.faultRetries > 0);
	if (!transient) return { retry: false, reason: 'not-retryable' };
	const delayMs = backoff(500, state.faultRetries) + jitter;
	if (state.faultRetries >= budget.faultRetries || delayMs > patienceLeft(state, budget)) {
		return { retry: false, reason: 'budget' };
	}
	return { retry: true, delayMs, busy: false };
}

function patienceLeft(state: RetryState, budget: RetryBudget): number {
	return budget.patienceMs === undefined ? Infinity : budget.patienceMs - (state.waitedMs ?? 0);
}

function backoff(firstMs: number, retries: number): number {
	return Math.min(firstMs * 2 ** retries, MAX_BACKOFF_MS);
}

/** Milliseconds from a Retry-After value, or undefined when it is missing or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const trimmed = value?.trim();
	if (!trimmed) return undefined;
	if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** One request's retries; its API key's pacer (pipeline/rateLimit/) paces the batch, from the same 429s. */
export class Retries {
	private readonly state: RetryState = { busyRetries: 0, faultRetries: 0 };

	constructor(
		private readonly budget: RetryBudget,
		private readonly random = Math.random,
	) {}

	decide(outcome: Outcome, now = Date.now()): RetryDecision {
		const decision = decideRetry(outcome, this.state, this.budget, now, this.random);
		if (!decision.retry) return decision;
		this.state.waitedMs = (this.state.waitedMs ?? 0) + decision.delayMs;
		if (decision.busy) this.state.busyRetries++;
		else this.state.faultRetries++;
		return decision;
	}

	get count(): number {
		return this.state.busyRetries + this.state.faultRetries;
	}
}
