import {
	UNKNOWN,
	afterAccepted,
	afterThrottled,
	nextSlot,
	type Heard,
	type LimitState,
	type Slot,
} from './limitPolicy';
import type { RateHeaders } from './rateHeaders';
import { StartLog, WINDOW_MS } from './startLog';

/** The longest a quota said spent holds the starts: the longest Retry-After the pipeline waits. */
const MAX_QUOTA_WAIT_MS = 60_000;

export interface Clock {
	now(): number;
	wait(ms: number): Promise<void>;
}

/** One request's start: when, whether it tries one more than the limit (a probe), its number. */
export interface Start {
	at: number;
	probe: boolean;
	seq: number;
}

/** What came of the request a start was given to: what the pacer learns the key's limit from. */
export type Answer =
	/** Answered without a 429. */
	| { kind: 'accepted'; headers?: RateHeaders }
	/** Refused with 429, asked to wait `waitMs` (Retry-After). */
	| { kind: 'throttled'; headers?: RateHeaders; waitMs?: number }
	/** Ended without an answer about the limit. */
	| { kind: 'failed' };

/**
 * One API key's LimitState (rules: limitPolicy.ts), for every sender in this process, and the
 * bookkeeping the rules read: every run's recent starts in one window, what is in flight, a pause,
 * and the API's word on its limit and quota. X-RateLimit-Remaining counts senders this process
 * cannot see (other queue-mode workers): before a limit is known no more than it starts before
 * its reset, and no probe goes while it says the window is full. Each check-and-reserve is atomic:
 * single-threaded, no await sits between them.
 */
export class KeyLimit {
	private state: LimitState = UNKNOWN;
	/** The limit the API last stated (X-RateLimit-Limit), whoever else shares the key. */
	private stated: number | undefined;
	/** A probe is under way (one at a time). */
	private probing = false;
	/** No start before this: the API asked to wait and nothing tells the rate yet. */
	private pausedUntil = -Infinity;
	/** What the API said remains of its quota, as of the answer to the start numbered `after`. */
	private quota: { remaining: number; after: number; until: number } | undefined;
	/** The key's recent starts, every run's, and what their answers showed. */
	private readonly log = new StartLog();
	private inFlight = 0;
	private lastStartAt = -Infinity;
	/** When the API accepted the key's requests lately (the last window, at least). */
	private readonly acceptedAt: number[] = [];

	constructor(private readonly clock: Clock) {}

	/** When the next start may go, as far as the key is concerned. */
	slot(now: number): Slot {
		if (this.quota && now >= this.quota.until) this.quota = undefined;
		const { quota } = this;
		const spent = quota && this.log.seq - quota.after >= quota.remaining;
		return nextSlot(this.state, {
			now,
			pausedUntil: this.pausedUntil,
			quotaSpentUntil: spent ? quota.until : undefined,
			lastStartAt: this.lastStartAt,
			probing: this.probing,
			stated: this.stated,
			starts: this.log,
		});
	}

	/** Records a start at `at` the slot allowed. */
	started(at: number, probe: boolean): Start {
		this.inFlight++;
		if (probe) this.probing = true;
		const seq = this.log.add(at, this.state.name === 'unknown');
		this.lastStartAt = at;
		return { at, probe, seq };
	}

	answered(start: Start, answer: Answer): void {
		const now = this.clock.now();
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.log.settle(start.seq, start.at, now, answer.kind === 'throttled');
		if (start.probe) this.probing = false;
		if (answer.kind === 'failed') return;
		const headers = answer.headers ?? {};
		if (answer.kind === 'accepted') {
			this.acceptedAt.push(now);
			while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS)
				this.acceptedAt.shift();
			// Before a limit is known, what the API takes in a window sets how many may go.
			if (this.state.name === 'unknown') this.log.took(start.seq, start.at);
		}
		this.noteHeaders(now, start, headers);
		const { acceptedAt, log } = this;
		const heard: Heard = {
			now,
			at: start.at,
			probe: start.probe,
			told: headers.limit,
			// Counted only when a rule reads it (after a 429): per answer, a batch's cost would grow
			// with the square of what the API takes in a window.
			get accepted() {
				return acceptedAt.filter((at) => at > now - WINDOW_MS).length;
			},
			tookInOneWindow: () => log.tookInOneWindow(),
		};
		if (answer.kind === 'accepted') {
			this.state = afterAccepted(this.state, heard, headers.remaining === 0);
			return;
		}
		const next = afterThrottled(this.state, heard);
		if (next !== 'pause') this.state = next;
		else this.pausedUntil = Math.max(this.pausedUntil, now + (answer.waitMs ?? WINDOW_MS));
	}

	/** Starts per second the key is paced at (Infinity before a limit is known): for tests, logs. */
	get rate(): number {
		return this.state.name === 'unknown' ? Infinity : this.state.limit;
	}

	/** Nothing started is still waiting for its answer. */
	get idle(): boolean {
		return this.inFlight === 0;
	}

	/** The API's own word on its limit and what remains of it. */
	private noteHeaders(now: number, start: Start, headers: RateHeaders): void {
		if (headers.limit !== undefined) this.stated = headers.limit;
		if (headers.remaining !== undefined) {
			this.quota = {
				remaining: headers.remaining,
				after: start.seq,
				until: now + Math.min(headers.resetMs ?? WINDOW_MS, MAX_QUOTA_WAIT_MS),
			};
		}
	}
}
