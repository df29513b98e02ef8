/** The window the API counts its limit over: the spec does not show it; one second is assumed. */
export const WINDOW_MS = 1000;
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
	/** Starts so far, every run's. */
	private seq = 0;
	private inFlight = 0;
	/** The most starts the API took within one window, before a limit is known. */
	private proven = 0;
	/** When the latest start the API took left; the first start of the window up to it (a seq)... */
	private latestTaken = -Infinity;
	private takenFrom = 1;
	/** ...and how many of that window's starts it took (each marked `taken`). */
	private taken = 0;
	/** Before a limit is known, the first start (a seq) the API may still count. */
	private countedFrom = 1;
	/**
	 * The starts of the last two windows: when each left, when its answer came, if refused, if
	 * counted in `taken`.
	 */
	private readonly starts: Array<{
		at: number;
		seq: number;
		doneAt?: number;
		refused?: true;
		taken?: true;
	}> = [];
	private lastStartAt = -Infinity;
	private readonly acceptedAt: number[] = [];
	private shortestRoundTrip = Infinity;
	/** The last time anything was started or answered: the owner forgets the longest idle first. */
	lastUsedAt: number;

	constructor(private readonly clock: Clock) {
		this.lastUsedAt = clock.now();
	}

	/** When the next start may go, as far as the key is concerned. */
	slot(now: number): Slot {
		const at = this.pausedUntil;
		if (this.quota && now >= this.quota.until) this.quota = undefined;
		if (this.limit === undefined) {
			// Before a limit is known, no more than the API says remains (others may use the key).
			const spent = this.quota && this.seq - this.quota.after >= this.quota.remaining;
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
		if (this.limit === undefined) this.prove(start);
		if (this.limit === undefined && headers.remaining === 0) {
			// The API says its window is full: the limit, learned without a 429.
			this.learn(now, headers.limit);
			return;
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
		this.best = Math.max(this.limit, this.tookInOneWindow());
		this.changedAt = now;
	}

	/**
	 * Once the API took the limit climbed to within one window, the climb stands: a 429 after that
	 * is a drop, not a wrong climb. Looked at once a window, from a window after the climb.
	 */
	private confirmClimb(now: number): void {
		if (now - Math.max(this.changedAt, this.climbCheckedAt) < WINDOW_MS) return;
		this.climbCheckedAt = now;
		if (this.tookInOneWindow() < this.limit!) return;
		this.climbedFrom = undefined;
		this.climbWait = CLIMB_AFTER_MS;
	}

	/** The most of the starts kept that the API took within one window, as far as answers tell. */
	private tookInOneWindow(): number {
		// Each one reached the API about halfway through its round trip.
		const took = this.starts
			.filter((start) => start.doneAt !== undefined && !start.refused)
			.map((start) => (start.at + start.doneAt!) / 2)
			.sort((a, b) => a - b);
		let most = 0;
		for (let first = 0, last = 0; last < took.length; last++) {
			while (took[first] <= took[last] - WINDOW_MS) first++;
			most = Math.max(most, last - first + 1);
		}
		return most;
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
		const entry = this.entry(start.seq);
		if (entry) {
			entry.doneAt = now;
			if (refused) entry.refused = true; // the API did not count it
		}
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
	 * The API took `start`: it takes at least as many as it took in the window up to the latest
	 * start it took. Only answered ones count, and late answers within that window count when they
	 * come, so a round trip's jitter neither adds nor loses any. Each answer moves the window on
	 * from where it was: no start is looked at twice.
	 */
	private prove(start: Start): void {
		if (start.at > this.latestTaken) {
			this.latestTaken = start.at;
			const kept = this.starts[0]?.seq ?? 1;
			if (this.takenFrom < kept) {
				// Answers over a second late: the window's first starts are gone, count it afresh.
				this.takenFrom = kept;
				this.taken = this.starts.filter((entry) => entry.taken).length;
			}
			for (
				let entry = this.entry(this.takenFrom);
				entry && entry.at <= this.latestTaken - WINDOW_MS;
				entry = this.entry(++this.takenFrom)
			) {
				if (entry.taken) this.taken--;
			}
		}
		const entry = this.entry(start.seq);
		if (entry && start.at > this.latestTaken - WINDOW_MS) {
			entry.taken = true;
			this.proven = Math.max(this.proven, ++this.taken);
		}
	}

	/** The start numbered `seq`, while it is kept. */
	private entry(seq: number): (typeof this.starts)[number] | undefined {
		const entry = this.starts[seq - (this.starts[0]?.seq ?? 0)];
		return entry?.seq === seq ? entry : undefined;
	}

	/**
	 * When the learned limit allows the next start: once fewer than `limit` of the key's starts are
	 * still counted by the API, or now for a probe (one request more than the limit).
	 */
	private windowSlot(now: number): Slot {
		const limit = this.limit!;
		const spaced = this.lastStartAt + WINDOW_MS / (limit * SPREAD);
		const shortest = this.shortest;
		const frees: number[] = [];
		for (const start of this.starts) {
			const free = this.freeAt(start, now, shortest);
			if (free > now) frees.push(free);
		}
		if (frees.length < limit) return { at: spaced, probe: false };
		if (this.probeDue(now)) return { at: spaced, probe: true };
		frees.sort((a, b) => a - b);
		const replaced = frees[frees.length - limit];
		return { at: Math.max(spaced, replaced), probe: false };
	}

	/**
	 * Before a limit is known: no wait (-Infinity) while fewer starts may still count in the API's
	 * window than FIRST_STEP more than it was seen to take; else until the first of them leaves it
	 * (or sooner, when an answer shows it takes more). Counted from the first one that may still
	 * count on, refused ones too: before a limit is known, a 429 only comes when others used the
	 * key's quota.
	 */
	private firstContactSlot(now: number): number {
		this.countedFrom = Math.max(this.countedFrom, this.starts[0]?.seq ?? 1);
		const shortest = this.shortest;
		let first = this.entry(this.countedFrom);
		while (first && this.freeAt(first, now, shortest) <= now)
			first = this.entry(++this.countedFrom);
		const counted = this.seq - this.countedFrom + 1;
		return counted < this.proven + FIRST_STEP || !first
			? -Infinity
			: this.freeAt(first, now, shortest);
	}

	/**
	 * When `start` stops counting in the API's window. A start counts a window after it left, plus
	 * however much longer than the shortest its round trip took (it may have reached the API that
	 * much later: a busy event loop, a slow first connection), capped; one refused never counts.
	 */
	private freeAt(start: (typeof this.starts)[number], now: number, shortest: number): number {
		if (start.refused) return -Infinity;
		const late = Math.min(MAX_EXTRA_MS, Math.max(0, (start.doneAt ?? now) - start.at - shortest));
		return start.at + WINDOW_MS + late + 5;
	}

	private get shortest(): number {
		return Number.isFinite(this.shortestRoundTrip) ? this.shortestRoundTrip : 0;
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
