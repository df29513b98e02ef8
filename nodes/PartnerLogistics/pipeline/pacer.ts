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

/** After a 429, send at this share of the rate the API accepted in the second before it. */
const BACK_OFF_SHARE = 0.95;
/** How long the rate must hold without a 429 before it is raised, and by how much. */
const PROBE_AFTER_MS = 10_000;
const PROBE_STEP = 0.95;
const WINDOW_MS = 1000;

/**
 * Paces the request starts of one node run (the pipeline bounds how many are in flight): starts
 * are spaced by the tightest of the user's ceiling, n8n's batching and the rate learned from
 * 429s, and the whole batch pauses when the API asks for it (Retry-After). Single-threaded
 * JavaScript makes each check-and-reserve atomic: no await sits between them.
 */
export class Pacer {
	private pausedUntil = 0;
	private nextStartAt = 0;
	private started = 0;
	private readonly firstStartAt: number;
	/** Milliseconds between starts learned from 429s; 0 until the API pushes back. */
	private learnedInterval = 0;
	private lastAdjustAt = 0;
	private readonly acceptedAt: number[] = [];

	constructor(
		private readonly settings: PacerSettings,
		private readonly clock: Clock,
	) {
		this.firstStartAt = clock.now();
		this.nextStartAt = this.firstStartAt;
	}

	/** Waits until the next request may start, and reserves that start. */
	async nextStart(): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const earliest = Math.max(this.pausedUntil, this.nextStartAt, this.batchStart(this.started));
			if (earliest <= now) {
				this.started++;
				// From the slot this start was due, not from when the timer fired: a timer that fires
				// a little late (a busy event loop) would otherwise slow every later start too.
				const interval = this.interval();
				this.nextStartAt = Math.max(earliest, now - interval) + interval;
				return;
			}
			await this.clock.wait(earliest - now);
		}
	}

	/** A request was answered without a 429: count it, and now and then probe a faster rate. */
	accepted(): void {
		const now = this.clock.now();
		this.acceptedAt.push(now);
		while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS) this.acceptedAt.shift();
		if (this.learnedInterval > 0 && now - this.lastAdjustAt >= PROBE_AFTER_MS) {
			this.learnedInterval *= PROBE_STEP;
			if (this.learnedInterval < 1) this.learnedInterval = 0;
			this.lastAdjustAt = now;
		}
	}

	/**
	 * The API refused a request with 429: everybody waits `pauseMs`, then sends at a little less
	 * than the rate the API accepted in the last second. Refusals of requests that were already in
	 * flight during the same pause do not lower the rate again.
	 */
	throttled(pauseMs: number): void {
		const now = this.clock.now();
		const alreadyPaused = this.pausedUntil > now;
		this.pausedUntil = Math.max(this.pausedUntil, now + pauseMs);
		if (alreadyPaused) return;
		const recent = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		this.learnedInterval =
			recent > 0
				? WINDOW_MS / (recent * BACK_OFF_SHARE)
				: Math.max(this.learnedInterval * 2, WINDOW_MS / this.settings.concurrency);
		this.lastAdjustAt = now;
	}

	/** Requests per second the pacer currently allows (Infinity when unpaced); for tests and logs. */
	get rate(): number {
		const interval = this.interval();
		return interval > 0 ? WINDOW_MS / interval : Infinity;
	}

	private interval(): number {
		const ceiling = this.settings.maxPerSecond > 0 ? WINDOW_MS / this.settings.maxPerSecond : 0;
		return Math.max(ceiling, this.learnedInterval);
	}

	private batchStart(index: number): number {
		const batch = this.settings.batch;
		if (!batch || batch.size <= 0 || batch.intervalMs <= 0) return 0;
		return this.firstStartAt + Math.floor(index / batch.size) * batch.intervalMs;
	}
}
