import type { RateHeaders } from './rateHeaders';

/** The window the API counts its limit over: the spec does not show it; one second is assumed. */
export const WINDOW_MS = 1000;

/**
 * One start of a request on the API key, and what came of it: the caller's handle on it too. A
 * fact, never changed: the answer's record replaces it in the API key's log (sentLog.ts).
 */
export interface Start {
	/** Starts on the API key before it, plus one. */
	readonly seq: number;
	readonly at: number;
	/** The limit in force when it left (Infinity: none learned yet). */
	readonly limit: number;
	/** One start beyond the limit: back to the limit a 429 lowered, or above it. */
	readonly probe?: 'return' | 'climb';
	readonly endedAt?: number;
	readonly outcome?: Outcome['kind'];
	/** X-RateLimit-Limit on its answer. */
	readonly stated?: number;
	/** Its answer taught the first limit; its 429 lowered the limit from `limit` (a return aims
	 * back at it), or undid climbs. */
	readonly changed?: 'learned' | 'lowered' | 'undone';
}

/** What came of the request a start was given to. */
export type Outcome =
	/** Answered without a 429. */
	| { kind: 'accepted'; headers?: RateHeaders }
	/** Refused with 429, asked to wait `waitMs` (Retry-After). */
	| { kind: 'throttled'; headers?: RateHeaders; waitMs?: number }
	/** Ended without an answer about the limit. */
	| { kind: 'failed' };

/** When the next start may go (Infinity: once one in flight ends), whether it probes, and the
 * first start the API may still count (its `seq`). */
export interface Slot {
	readonly at: number;
	readonly probe?: Start['probe'];
	readonly countedFrom: number;
}
