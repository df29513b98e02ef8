/** The window the API counts its limit over: the spec does not show it; one second is assumed. */
export const WINDOW_MS = 1000;
/** Before the API has refused anything: requests in flight at first, every run on the key together. */
const FIRST_IN_FLIGHT = 4;
/**
 * ...doubled after each stretch this long in which they were all in use and none was refused, as
 * long as the round trips stayed near the shortest seen or a whole window has gone by without a
 * 429. Close by, answers queue behind n8n's own work and a few in flight keep it busy: more would
 * only be more requests out when the first 429 comes. Once the API has taken a whole window's
 * worth, the allowance grows regardless, so later runs go at Concurrency.
 */
const GROW_EVERY_MS = 500;
/** Round trips "near the shortest" are at most this many times it, plus a couple of ms. */
const QUEUED_ROUND_TRIP = 1.5;
/** Concurrency's own maximum: beyond it the in-flight allowance no longer limits anyone. */
const MAX_IN_FLIGHT = 100;
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
/** Round trips looked at to tell whether answers queue. */
const ROUND_TRIPS_KEPT = 8;
/** The most a slow answer adds to the time its start holds a place in the window. */
const MAX_EXTRA_MS = WINDOW_MS;
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

/** What an answer's rate-limit headers say, when it sends them (the spec shows none). */
export interface RateHeaders {
	/** X-RateLimit-Limit / RateLimit-Limit. */
	limit?: number;
	/** X-RateLimit-Remaining / RateLimit-Remaining: what the API still takes before its reset. */
	remaining?: number;
	/** When it takes more again: X-RateLimit-Reset / RateLimit-Reset, in ms from the answer. */
	resetMs?: number;
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
 * - Before the API has refused anything, FIRST_IN_FLIGHT requests are in flight at once, doubling
 *   every GROW_EVERY_MS in which they were all in use (in the first window, only while answers did
 *   not queue): the first 429 of a slow API finds few others already sent, and a fast API is soon
 *   sent to at Concurrency. Light use (a poll) does not raise it; once raised, it stays: a later
 *   run against an API that has refused nothing starts at Concurrency.
 * - A 429 teaches the limit: what the API accepted in the last window, or the limit it states
 *   (X-RateLimit-Limit) when that is not more than it accepted. From then on the starts the API
 *   still counts never exceed it (a start counts a window after it left, longer when its answer
 *   was slow to come back). A later run starts at it.
 * - The limit is a belief, not a ceiling. A 429 while paced lowers it. Below the best limit the
 *   API took, one request more than the limit is tried every second or two; accepted, the limit
 *   is back at the best. At the best, unless the API states that is its limit, one more is tried
 *   now and then (rarely once refused), and each one accepted raises the limit by one and tries
 *   the next as soon as the window is full again: a limit learned while others used the key
 *   climbs back, one request per round trip, once they stop.
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
	/** A probe is under way (one at a time). */
	private probing = false;
	/** No start before this: the API asked to wait and nothing tells the rate yet. */
	private pausedUntil = -Infinity;
	/** What the API said remains of its quota, as of the answer to the start numbered `after`. */
	private quota: { remaining: number; after: number; until: number } | undefined;
	/** Starts so far, every run's. */
	private seq = 0;
	private inFlight = 0;
	private allowance = FIRST_IN_FLIGHT;
	private allowanceSince: number;
	private firstStartAt: number | undefined;
	private allowanceUsed = false;
	/** The starts of the last two windows: when each left, when its answer came, if refused. */
	private readonly starts: Array<{ at: number; seq: number; doneAt?: number; refused?: true }> = [];
	private lastStartAt = -Infinity;
	private readonly acceptedAt: number[] = [];
	/** The last round trips: how much they vary, and whether answers queue. */
	private readonly roundTrips: number[] = [];
	private shortestRoundTrip = Infinity;
	/** The last time anything was started or answered: the owner forgets the longest idle first. */
	lastUsedAt: number;

	constructor(private readonly clock: Clock) {
		this.allowanceSince = clock.now();
		this.lastUsedAt = clock.now();
	}

	/** When the next start may go, as far as the key is concerned. */
	slot(now: number): Slot {
		const at = this.pausedUntil;
		if (this.quota && now >= this.quota.until) this.quota = undefined;
		if (this.limit === undefined) {
			if (this.inFlight >= this.inFlightAllowance(now)) {
				this.allowanceUsed = true;
				return { at: Infinity, probe: false };
			}
			// Before a limit is known, no more than the API says remains (others may use the key).
			const spent = this.quota && this.seq - this.quota.after >= this.quota.remaining;
			return { at: spent ? Math.max(at, this.quota!.until) : at, probe: false };
		}
		const window = this.windowSlot(now);
		return { at: Math.max(at, window.at), probe: window.probe };
	}

	/** Records a start at `at` the slot allowed. */
	started(at: number, probe: boolean): Start {
		this.firstStartAt ??= at;
		this.inFlight++;
		if (probe) this.probing = true;
		const seq = ++this.seq;
		this.starts.push({ at, seq });
		while (this.starts[0].at <= at - WINDOW_MS - MAX_EXTRA_MS) this.starts.shift();
		this.lastStartAt = at;
		this.lastUsedAt = at;
		return { at, probe, seq };
	}

	/** The request started at `start` was answered without a 429. */
	accepted(start: Start, headers: RateHeaders = {}): void {
		const now = this.clock.now();
		this.settle(now, start);
		this.acceptedAt.push(now);
		while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS) this.acceptedAt.shift();
		this.heard(now, start, headers);
		if (this.limit === undefined && headers.remaining === 0) {
			// The API says its window is full: the limit, learned without a 429.
			this.learn(now, headers.limit);
			return;
		}
		if (!start.probe || this.limit === undefined) return;
		this.probing = false;
		if (this.limit < this.best) {
			// A request beyond the limit went through: back to the best one the API took.
			this.limit = this.best;
			this.returnAfter = RETURN_AFTER_MS;
		} else {
			// One more than the best went through: the API takes more now (another sender stopped).
			this.limit++;
			this.best = this.limit;
			this.climbAfter = 0;
		}
		this.changedAt = now;
	}

	/**
	 * The request started at `start` was refused with 429. `waitMs`: how long the API asked to
	 * wait (Retry-After); `headers`: what it said of its limit.
	 */
	throttled(
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
		this.best = this.limit;
		this.changedAt = now;
	}

	/** The request started at `start` ended without an answer about the limit. */
	failed(start: Start): void {
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
		const entry = this.starts[start.seq - (this.starts[0]?.seq ?? 0)];
		if (entry?.seq === start.seq) {
			entry.doneAt = now;
			if (refused) entry.refused = true; // the API did not count it
		}
		this.roundTrips.push(now - start.at);
		if (this.roundTrips.length > ROUND_TRIPS_KEPT) this.roundTrips.shift();
		this.shortestRoundTrip = Math.min(this.shortestRoundTrip, now - start.at);
		this.lastUsedAt = now;
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
	 * The in-flight allowance before the API has refused anything: doubled while it was used up and
	 * answers did not queue.
	 */
	private inFlightAllowance(now: number): number {
		if (now - this.allowanceSince >= GROW_EVERY_MS) {
			const windowTaken = now - (this.firstStartAt ?? now) >= WINDOW_MS;
			if (this.allowanceUsed && (windowTaken || !this.queued())) {
				this.allowance = Math.min(MAX_IN_FLIGHT, this.allowance * 2);
			}
			this.allowanceUsed = false;
			this.allowanceSince = now;
		}
		return this.allowance;
	}

	/** The last round trips took well over the shortest: answers wait, not for the network. */
	private queued(): boolean {
		const last = this.roundTrips.slice(-8).sort((a, b) => a - b);
		const typical = last[Math.floor(last.length / 2)] ?? 0;
		return typical > QUEUED_ROUND_TRIP * this.shortestRoundTrip + 2;
	}

	/**
	 * When the learned limit allows the next start: once fewer than `limit` of the key's starts are
	 * still counted by the API, or now for a probe (one request more than the limit). A start counts
	 * a window after it left, plus however much longer than the shortest its round trip took (it
	 * may have reached the API that much later: a busy event loop, a slow first connection), capped;
	 * one the API refused does not count.
	 */
	private windowSlot(now: number): Slot {
		const limit = this.limit!;
		const spaced = this.lastStartAt + WINDOW_MS / (limit * SPREAD);
		const shortest = Number.isFinite(this.shortestRoundTrip) ? this.shortestRoundTrip : 0;
		const frees: number[] = [];
		for (const start of this.starts) {
			if (start.refused) continue;
			const late = Math.min(MAX_EXTRA_MS, Math.max(0, (start.doneAt ?? now) - start.at - shortest));
			const free = start.at + WINDOW_MS + late + 5;
			if (free > now) frees.push(free);
		}
		if (frees.length < limit) return { at: spaced, probe: false };
		frees.sort((a, b) => a - b);
		const replaced = frees[frees.length - limit];
		if (replaced > now && this.probeDue(now)) return { at: spaced, probe: true };
		return { at: Math.max(spaced, replaced), probe: false };
	}

	private probeDue(now: number): boolean {
		if (this.probing) return false;
		const limit = this.limit!;
		// When the API says what remains, one more is tried only while it says there is room.
		if (this.quota && this.seq - this.quota.after >= this.quota.remaining) return false;
		if (limit < this.best) return now - this.changedAt >= this.returnAfter;
		if (this.stated !== undefined && limit >= this.stated) return false; // the API said so
		return now - this.changedAt >= this.climbAfter;
	}
}
