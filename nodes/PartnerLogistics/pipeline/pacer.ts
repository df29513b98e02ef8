export interface PacerSettings {
	/** Requests in flight at once (the pipeline runs this many items side by side). */
	concurrency: number;
	/** The user's own ceiling; 0 for none. */
	maxPerSecond: number;
	/** n8n's Request Options › Batching: `size` requests, then the next batch `intervalMs` later. */
	batch?: { size: number; intervalMs: number };
}

export interface Clock {
	now(): number;
	/** Resolves after `ms`, or earlier when the execution is cancelled. */
	wait(ms: number): Promise<void>;
}

/** The window the API counts its limit over: the spec does not show it; one second is assumed. */
const WINDOW_MS = 1000;
/** Requests in flight at first, before the API has said anything of its limit. */
const FIRST_IN_FLIGHT = 2;
/** While no 429 came, the requests in flight may double this often, up to Concurrency. */
const GROW_EVERY_MS = 250;
/** A 429 while paced lowers the limit to this share, unless the API said its limit. */
const DECREASE = 0.7;
/** After the limit dropped, one request more than it is tried this long after (then 1.5× longer). */
const FIRST_PROBE_AFTER_MS = 1000;
const MAX_PROBE_AFTER_MS = 8000;
/** Within a window, starts may come at twice the limit's average pace: half-size bursts. */
const SPREAD = 2;

/**
 * Paces the request starts of one node run so a rate-limited API refuses as few as possible,
 * without sending slower than it accepts. Before the API has refused anything, few requests are
 * in flight at first, doubling every quarter second, so the first 429 finds few others already
 * sent. A 429 teaches the limit: the requests the API accepted in the last window, or the limit
 * it says (X-RateLimit-Limit), when that is not more than it accepted. From then on the starts
 * of any window never exceed it, a window after the start each replaces (plus the spread of
 * round trips, so arrivals keep the order of starts). A 429 while paced means the limit dropped:
 * it is lowered. Below the best limit learned, or the one the API states, one request more than
 * the limit is tried now and then (less often each time it is refused); accepted, the limit goes
 * back up. A 429 before any of ours was accepted (others used the key's quota) teaches nothing:
 * all starts wait as the API asked. The user's
 * Max Requests per Second and n8n's Batching apply on top. Single-threaded JavaScript makes each
 * check-and-reserve atomic: no await sits between them.
 */
export class Pacer {
	private nextStartAt: number;
	private started = 0;
	private readonly firstStartAt: number;
	private inFlight = 0;
	/** Whoever waits for a request in flight to end. */
	private readonly freed: Array<() => void> = [];
	/** Starts per window the API accepts; undefined until it answers 429. */
	private limit: number | undefined;
	/** The highest limit learned: probes aim back at it after a drop. */
	private best = 0;
	/** The limit the API last stated (X-RateLimit-Limit), whoever else shares the key. */
	private stated: number | undefined;
	private learnedAt = -Infinity;
	private probeAfter = FIRST_PROBE_AFTER_MS;
	private probeStartedAt: number | undefined;
	/** No start before this: the API asked to wait and nothing tells the rate yet. */
	private pausedUntil = -Infinity;
	private readonly starts: number[] = [];
	private lastStartAt = -Infinity;
	private readonly acceptedAt: number[] = [];
	private minRoundTrip = Infinity;
	private maxRoundTrip = 0;

	constructor(
		private readonly settings: PacerSettings,
		private readonly clock: Clock,
	) {
		this.firstStartAt = clock.now();
		this.nextStartAt = this.firstStartAt;
	}

	/** Waits until the next request may start, reserves that start and returns its time. */
	async nextStart(): Promise<number> {
		for (;;) {
			const now = this.clock.now();
			if (this.limit === undefined) {
				const doublings = Math.floor((now - this.firstStartAt) / GROW_EVERY_MS);
				const cap = Math.min(this.settings.concurrency, FIRST_IN_FLIGHT * 2 ** doublings);
				if (this.inFlight >= cap) {
					const grows = this.firstStartAt + (doublings + 1) * GROW_EVERY_MS;
					const freed = new Promise<void>((resolve) => this.freed.push(resolve));
					await (cap < this.settings.concurrency
						? Promise.race([freed, this.clock.wait(grows - now)])
						: freed);
					continue;
				}
			}
			const window = this.windowSlot(now);
			const earliest = Math.max(
				this.nextStartAt,
				this.batchStart(this.started),
				window.at,
				this.pausedUntil,
			);
			if (earliest <= now) {
				this.started++;
				this.inFlight++;
				// From the slot this start was due, not from when the timer fired: a timer that fires
				// a little late (a busy event loop) would otherwise slow every later start too.
				const interval = this.ceilingInterval();
				this.nextStartAt = Math.max(earliest, now - interval) + interval;
				if (window.probe) this.probeStartedAt = now;
				this.starts.push(now);
				this.lastStartAt = now;
				return now;
			}
			await this.clock.wait(earliest - now);
		}
	}

	/** The request started at `startedAt` was answered without a 429. */
	accepted(startedAt: number): void {
		const now = this.clock.now();
		this.settle(now, startedAt);
		this.acceptedAt.push(now);
		while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS) this.acceptedAt.shift();
		if (startedAt === this.probeStartedAt && this.limit !== undefined) {
			// A request beyond the limit went through: back to the best one known, or, below the
			// limit the API states, twice as many (others may have used the same key before).
			this.probeStartedAt = undefined;
			this.probeAfter = FIRST_PROBE_AFTER_MS;
			this.limit = this.limit < this.best ? this.best : Math.min(this.ceiling(), this.limit * 2);
			this.best = Math.max(this.best, this.limit);
			this.learnedAt = now;
		}
	}

	/**
	 * The request started at `startedAt` was refused with 429. `told`: the limit the API stated;
	 * `waitMs`: how long it asked to wait (Retry-After).
	 */
	throttled(startedAt: number, { told, waitMs }: { told?: number; waitMs?: number } = {}): void {
		const now = this.clock.now();
		this.settle(now, startedAt);
		const accepted = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		if (this.limit === undefined && accepted === 0 && told === undefined) {
			// None of ours went through lately: others used the key's quota, and this says nothing
			// of our rate. Everyone waits as the API asked, then goes on as before.
			this.pausedUntil = Math.max(this.pausedUntil, now + (waitMs ?? WINDOW_MS));
			return;
		}
		if (told !== undefined && told >= 1) this.stated = told;
		const said = told !== undefined && told >= 1 && told <= accepted + 1 ? told : undefined;
		if (startedAt === this.probeStartedAt) {
			// The limit has not come back yet: try again, later each time.
			this.probeStartedAt = undefined;
			this.probeAfter = Math.min(MAX_PROBE_AFTER_MS, this.probeAfter * 1.5);
			this.learnedAt = now;
			return;
		}
		if (this.limit === undefined) {
			this.limit = said ?? Math.max(1, accepted);
			this.best = this.limit;
		} else if (startedAt >= this.learnedAt) {
			this.limit = Math.max(1, Math.min(this.limit - 1, said ?? Math.floor(this.limit * DECREASE)));
		} else {
			return; // sent before the limit last changed: it teaches nothing new
		}
		this.learnedAt = now;
	}

	/** The request started at `startedAt` ended without an answer about the limit. */
	failed(startedAt: number): void {
		this.settle(this.clock.now(), startedAt);
	}

	/** Requests per second the pacer allows on average (Infinity when unpaced); for tests and logs. */
	get rate(): number {
		const fromLimit = this.limit === undefined ? 0 : WINDOW_MS / this.limit;
		const interval = Math.max(this.ceilingInterval(), fromLimit);
		return interval > 0 ? WINDOW_MS / interval : Infinity;
	}

	private settle(now: number, startedAt: number): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.minRoundTrip = Math.min(this.minRoundTrip, now - startedAt);
		this.maxRoundTrip = Math.max(this.maxRoundTrip, now - startedAt);
		// Every waiter checks again (one may have stopped waiting when the cap grew).
		for (const wake of this.freed.splice(0)) wake();
	}

	/** How much later than a window a start may arrive than the one it replaces (round trips vary). */
	private margin(): number {
		const spread = Number.isFinite(this.minRoundTrip) ? this.maxRoundTrip - this.minRoundTrip : 0;
		return Math.min(250, spread + 5);
	}

	/**
	 * When the learned limit allows the next start: a window after the start it replaces, or now
	 * for a probe (one request more than the limit, to see whether a dropped limit is back).
	 */
	private windowSlot(now: number): { at: number; probe: boolean } {
		const span = WINDOW_MS + this.margin();
		while (this.starts.length && this.starts[0] <= now - span) this.starts.shift();
		if (this.limit === undefined) return { at: 0, probe: false };
		const spaced = this.lastStartAt + WINDOW_MS / (this.limit * SPREAD);
		if (this.starts.length < this.limit) return { at: spaced, probe: false };
		const replaced = this.starts[this.starts.length - this.limit] + span;
		if (replaced > now && this.probeDue(now)) return { at: spaced, probe: spaced <= now };
		return { at: Math.max(spaced, replaced), probe: false };
	}

	/** As high as probes go: the best limit learned, or the one the API states if higher. */
	private ceiling(): number {
		return Math.max(this.best, this.stated ?? 0);
	}

	private probeDue(now: number): boolean {
		return (
			this.limit !== undefined &&
			this.limit < this.ceiling() &&
			this.probeStartedAt === undefined &&
			now - this.learnedAt >= this.probeAfter
		);
	}

	private ceilingInterval(): number {
		return this.settings.maxPerSecond > 0 ? WINDOW_MS / this.settings.maxPerSecond : 0;
	}

	private batchStart(index: number): number {
		const batch = this.settings.batch;
		if (!batch || batch.size <= 0 || batch.intervalMs <= 0) return 0;
		return this.firstStartAt + Math.floor(index / batch.size) * batch.intervalMs;
	}
}
