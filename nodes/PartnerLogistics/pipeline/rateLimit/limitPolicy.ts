import type { RateHeaders } from './rateHeaders';
import { StartLog, WINDOW_MS } from './startLog';

/**
 * Before the API has refused anything, the starts it still counts stay at most this many above the
 * most it was seen to take in one window: the first 429 finds no more than these already sent,
 * however far away the API is, and what it takes grows this much each round trip.
 */
const FIRST_STEP = 5;
/** A 429 while paced lowers the limit to this share, unless the API said its limit. */
const DECREASE = 0.7;
/** Below the best limit known, one request more than the limit is tried this long after it fell. */
const RETURN_AFTER_MS = 1000;
/** ...then 1.5× later each time it is refused, at most this: a limit that comes back is found soon. */
const MAX_RETURN_AFTER_MS = 2000;
/**
 * At the best limit known (and none stated), one more is tried this long after it last changed;
 * accepted, the limit rises by one and the next is tried as soon as the window is full again.
 */
const CLIMB_AFTER_MS = 2000;
/** ...refused, twice as late each time: where the limit really is, tries are rare. */
const MAX_CLIMB_AFTER_MS = 16_000;
/** Within a window, starts may come at twice the limit's average pace: half-size bursts. */
const SPREAD = 2;
/** The longest an exhausted quota (X-RateLimit-Remaining: 0) holds the starts, as Retry-After. */
const MAX_QUOTA_WAIT_MS = 60_000;

export interface Clock {
	now(): number;
	/** Resolves after `ms`. */
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

/** When the next start may go: `at` (Infinity: when a request in flight ends), and whether it probes. */
export interface Slot {
	at: number;
	probe: boolean;
}

/**
 * What one API key's answers taught about its limit, for every sender in this n8n process, and
 * when the next start may go. The starts of every run on the key count in one window, and the
 * requests in flight count for all.
 *
 * - Before the API has refused anything, the starts it still counts stay at most FIRST_STEP above
 *   the most it was seen to take in one window, which rises as answers come in: the first 429 of
 *   an unknown limit finds at most FIRST_STEP others already sent, at any distance, and a fast
 *   API is soon sent to at Concurrency. A later run starts at what the API took (light use, a
 *   poll, teaches little; a full run at Concurrency, Concurrency).
 * - A 429 teaches the limit: what the API accepted in the last window, or the limit it states
 *   (X-RateLimit-Limit) when that is not more than it accepted. From then on the starts the API
 *   still counts never exceed it (a start counts a window after it left, longer when its answer
 *   was slow to come back). A later run starts at it.
 * - The limit is a belief, not a ceiling. A 429 while paced lowers it. Below the best limit the
 *   API took, one request more than the limit is tried every second or two; accepted, the limit
 *   is back at the best. At the best, unless the API states that is its limit, one more is tried
 *   now and then (rarely once refused), and each one accepted raises the limit by one and tries
 *   the next as soon as the window is full again: a limit learned while others used the key
 *   climbs back, one request per round trip, once they stop. A probe may only have found the
 *   room a window's edge leaves (answers tell where the API's window is only roughly), so a
 *   climb refused before the API took the new limit in one window is undone, and the next is
 *   tried twice as late.
 * - A 429 before any request was accepted (others used the key's quota) teaches nothing: every
 *   start waits as the API asked.
 * - When the API says what remains of its quota (X-RateLimit-Remaining), that counts senders this
 *   process cannot see (other queue-mode workers): before a limit is known no more than that
 *   starts before its reset, an answer saying nothing remains teaches the limit without a 429,
 *   and no request beyond the limit is tried while the API says its window is full.
 *
 * Single-threaded JavaScript makes each check-and-reserve atomic: no await sits between them.
 */
export class KeyLimit {
	/** Starts per window the API accepts; undefined until it answers 429. */
	private limit: number | undefined;
	/** The highest limit the API was seen to take: returns aim back at it after a drop. */
	private best = 0;
	/** The limit the API last stated (X-RateLimit-Limit), whoever else shares the key. */
	private stated: number | undefined;
	/** When the limit last changed: a 429 for a request started before then teaches nothing new. */
	private changedAt = -Infinity;
	private returnAfter = RETURN_AFTER_MS;
	private climbAfter = CLIMB_AFTER_MS;
	/** The limit before the climb under way (each accepted probe at the best raises it by one). */
	private climbedFrom: number | undefined;
	/** How long after a wrong climb the next one is tried: twice as long after each. */
	private climbWait = CLIMB_AFTER_MS;
	private climbCheckedAt = -Infinity;
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
	private readonly acceptedAt: number[] = [];
	constructor(private readonly clock: Clock) {}

	/** When the next start may go, as far as the key is concerned. */
	slot(now: number): Slot {
		const at = this.pausedUntil;
		if (this.quota && now >= this.quota.until) this.quota = undefined;
		if (this.limit === undefined) {
			// Before a limit is known, no more than the API says remains (others may use the key).
			const spent = this.quota && this.log.seq - this.quota.after >= this.quota.remaining;
			const room = this.firstContactSlot(now);
			return { at: Math.max(at, room, spent ? this.quota!.until : at), probe: false };
		}
		const window = this.windowSlot(now);
		return { at: Math.max(at, window.at), probe: window.probe };
	}

	/** Records a start at `at` the slot allowed. */
	started(at: number, probe: boolean): Start {
		this.inFlight++;
		if (probe) this.probing = true;
		const seq = this.log.add(at);
		this.lastStartAt = at;
		return { at, probe, seq };
	}

	/** Learns from the answer to the request started at `start`. */
	answered(start: Start, answer: Answer): void {
		if (answer.kind === 'accepted') this.accepted(start, answer.headers);
		else if (answer.kind === 'throttled') this.throttled(start, answer);
		else this.failed(start);
	}

	private accepted(start: Start, headers: RateHeaders = {}): void {
		const now = this.clock.now();
		this.settle(now, start);
		this.acceptedAt.push(now);
		while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS) this.acceptedAt.shift();
		this.heard(now, start, headers);
		if (this.limit === undefined) {
			this.log.took(start.seq, start.at);
			if (headers.remaining === 0) {
				// The API says its window is full: the limit, learned without a 429.
				this.learn(now, headers.limit);
				return;
			}
		}
		if (this.climbedFrom !== undefined) this.confirmClimb(now);
		if (!start.probe || this.limit === undefined) return;
		this.probing = false;
		if (this.limit < this.best) {
			// A request beyond the limit went through: back to the best one the API took.
			this.limit = this.best;
			this.returnAfter = RETURN_AFTER_MS;
		} else {
			// One more than the best went through: the API takes more now (another sender stopped),
			// or the probe only found a place the window had left (answers tell its edges roughly).
			this.climbedFrom ??= this.limit;
			this.limit++;
			this.best = this.limit;
			this.climbAfter = 0;
		}
		this.changedAt = now;
	}

	private throttled(
		start: Start,
		{ waitMs, headers = {} }: { waitMs?: number; headers?: RateHeaders } = {},
	): void {
		const now = this.clock.now();
		this.settle(now, start, true);
		this.heard(now, start, headers);
		const told = headers.limit;
		const accepted = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		if (this.limit === undefined && accepted === 0 && told === undefined) {
			// None went through lately: others used the key's quota, and this says nothing of the
			// rate. Everyone waits as the API asked, then goes on as before.
			this.pausedUntil = Math.max(this.pausedUntil, now + (waitMs ?? WINDOW_MS));
			return;
		}
		if (start.probe) {
			// Not more yet: try again later, later each time.
			this.probing = false;
			if (this.limit !== undefined && this.limit < this.best) {
				this.returnAfter = Math.min(MAX_RETURN_AFTER_MS, this.returnAfter * 1.5);
			} else {
				this.climbAfter = Math.min(MAX_CLIMB_AFTER_MS, 2 * this.climbAfter || CLIMB_AFTER_MS);
			}
			this.changedAt = now;
			return;
		}
		const said = told !== undefined && told <= accepted + 1 ? told : undefined;
		if (this.limit === undefined) {
			this.learn(now, told);
			return;
		} else if (start.at >= this.changedAt && this.climbedFrom !== undefined) {
			// Refused right after climbing: the climb was wrong, not the limit it climbed from.
			this.limit = this.best = this.climbedFrom;
			this.climbedFrom = undefined;
			this.climbWait = Math.min(MAX_CLIMB_AFTER_MS, 2 * this.climbWait);
			this.climbAfter = this.climbWait;
		} else if (start.at >= this.changedAt) {
			// The limit dropped, or others use the key: lower it.
			this.limit = Math.max(1, Math.min(this.limit - 1, said ?? Math.floor(this.limit * DECREASE)));
			this.climbAfter = Math.max(this.climbAfter, CLIMB_AFTER_MS);
		} else {
			return; // sent before the limit last changed: it teaches nothing new
		}
		this.changedAt = now;
	}

	/**
	 * The first limit: what the API accepted in the last window, or the limit it states when that
	 * is not more than it accepted (a per-hour limit is not a per-second one).
	 */
	private learn(now: number, told: number | undefined): void {
		const accepted = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		this.limit = told !== undefined && told <= accepted + 1 ? told : Math.max(1, accepted);
		// What it took in one window before (more, if the limit just dropped) is where a return aims.
		this.best = Math.max(this.limit, this.log.tookInOneWindow());
		this.changedAt = now;
	}

	/**
	 * Once the API took the limit climbed to within one window, the climb stands: a 429 after that
	 * is a drop, not a wrong climb. Looked at once a window, from a window after the climb.
	 */
	private confirmClimb(now: number): void {
		if (now - Math.max(this.changedAt, this.climbCheckedAt) < WINDOW_MS) return;
		this.climbCheckedAt = now;
		if (this.log.tookInOneWindow() < this.limit!) return;
		this.climbedFrom = undefined;
		this.climbWait = CLIMB_AFTER_MS;
	}

	private failed(start: Start): void {
		this.settle(this.clock.now(), start);
		if (start.probe) this.probing = false;
	}

	/** Requests per second the key is paced at (Infinity before a limit is known); for tests and logs. */
	get rate(): number {
		return this.limit === undefined ? Infinity : this.limit;
	}

	/** Nothing started is still waiting for its answer. */
	get idle(): boolean {
		return this.inFlight === 0;
	}

	private settle(now: number, start: Start, refused = false): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.log.settle(start.seq, start.at, now, refused);
	}

	/** The API's own word on its limit and what remains of it. */
	private heard(now: number, start: Start, headers: RateHeaders): void {
		if (headers.limit !== undefined) this.stated = headers.limit;
		if (headers.remaining !== undefined) {
			this.quota = {
				remaining: headers.remaining,
				after: start.seq,
				until: now + Math.min(headers.resetMs ?? WINDOW_MS, MAX_QUOTA_WAIT_MS),
			};
		}
	}

	/**
	 * When the learned limit allows the next start: once fewer than `limit` of the key's starts are
	 * still counted by the API, or now for a probe (one request more than the limit).
	 */
	private windowSlot(now: number): Slot {
		const limit = this.limit!;
		const spaced = this.lastStartAt + WINDOW_MS / (limit * SPREAD);
		const leaving = this.log.leaving(now);
		if (leaving.length < limit) return { at: spaced, probe: false };
		if (this.probeDue(now)) return { at: spaced, probe: true };
		leaving.sort((a, b) => a - b);
		const replaced = leaving[leaving.length - limit];
		return { at: Math.max(spaced, replaced), probe: false };
	}

	/**
	 * Before a limit is known: no wait (-Infinity) while fewer starts may still count in the API's
	 * window than FIRST_STEP more than it was seen to take; else until the first of them leaves it
	 * (or sooner, when an answer shows it takes more).
	 */
	private firstContactSlot(now: number): number {
		const { counted, firstLeavesAt } = this.log.countedSince(now);
		return counted < this.log.proven + FIRST_STEP ? -Infinity : firstLeavesAt;
	}

	private probeDue(now: number): boolean {
		if (this.probing) return false;
		const limit = this.limit!;
		// When the API says what remains, one more is tried only while it says there is room.
		if (this.quota && this.log.seq - this.quota.after >= this.quota.remaining) return false;
		if (limit < this.best) return now - this.changedAt >= this.returnAfter;
		if (this.stated !== undefined && limit >= this.stated) return false; // the API said so
		return now - this.changedAt >= this.climbAfter;
	}
}
