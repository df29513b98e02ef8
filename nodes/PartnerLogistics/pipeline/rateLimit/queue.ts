import type { Answer, Clock, KeyLimit, Start } from './keyLimit';

export interface PacerSettings {
	/** Requests in flight at once (the pipeline runs this many items side by side). */
	concurrency: number;
	/** The user's own ceiling; 0 for none. */
	maxPerSecond: number;
	/** n8n's Request Options › Batching: `size` requests, then the next batch `intervalMs` later. */
	batch?: { size: number; intervalMs: number };
	/** The longest a start may wait (an agent's tool call); none when undefined. */
	patienceMs?: number;
}

/** A start asked for and not yet given. */
interface Ticket {
	run: RunPacer;
	give(start: Start | undefined): void;
}

/**
 * The starts of every run on one API key in this n8n process, given out as the key's limit
 * allows (KeyLimit). When several runs wait, the run served longest ago goes first: a single
 * booking arriving by webhook takes the next free start, not the place behind a batch's twenty.
 */
export class ApiKeyPacer {
	private readonly waiting: Ticket[] = [];
	/** When the pending timer fires; Infinity when none is pending. */
	private wakeAt = Infinity;

	constructor(
		readonly limit: KeyLimit,
		private readonly clock: Clock,
	) {}

	/** Waits for a start for `run`; undefined when it is withdrawn (cancelled, or out of time). */
	async take(run: RunPacer): Promise<Start | undefined> {
		return await new Promise((give) => {
			this.waiting.push({ run, give });
			this.pump();
		});
	}

	withdraw(run: RunPacer): void {
		for (const ticket of this.waiting.filter((waiting) => waiting.run === run)) {
			this.waiting.splice(this.waiting.indexOf(ticket), 1);
			ticket.give(undefined);
		}
	}

	/** Learns from an answer and gives out what it frees; bound, as every run's own `answered`. */
	readonly answered = (start: Start, answer: Answer): void => {
		this.limit.answered(start, answer);
		this.pump();
	};

	/** No run waits and nothing is in flight: the owner may forget the key. */
	get idle(): boolean {
		return this.waiting.length === 0 && this.limit.idle;
	}

	/** Gives out every start that may go now, then sleeps until the next one may. */
	private pump(): void {
		for (;;) {
			const now = this.clock.now();
			const slot = this.limit.slot(now);
			let chosen: { ticket: Ticket; due: number } | undefined;
			let next = Infinity;
			for (const ticket of [...this.waiting]) {
				const due = Math.max(slot.at, ticket.run.earliest());
				if (due > ticket.run.deadline && due !== Infinity) {
					this.waiting.splice(this.waiting.indexOf(ticket), 1);
					ticket.run.blockedUntil = due;
					ticket.give(undefined);
				} else if (due > now) {
					next = Math.min(next, due);
				} else if (!chosen || ticket.run.lastStartAt < chosen.ticket.run.lastStartAt) {
					chosen = { ticket, due };
				}
			}
			if (!chosen) return this.wakeUpAt(next, now);
			const { ticket, due } = chosen;
			this.waiting.splice(this.waiting.indexOf(ticket), 1);
			const start = this.limit.started(now, slot.probe);
			ticket.run.started(now, due);
			ticket.give(start);
		}
	}

	private wakeUpAt(at: number, now: number): void {
		if (at === Infinity || at >= this.wakeAt) return;
		this.wakeAt = at;
		void this.clock.wait(at - now).then(() => {
			if (this.wakeAt === at) this.wakeAt = Infinity;
			this.pump();
		});
	}
}

/**
 * One node run's (or poll's) place among the senders on its API key: its own ceilings (Max
 * Requests per Second, n8n's Batching, an agent's patience) on top of what the key allows.
 */
export class RunPacer {
	/** When this run last got a start: the run served longest ago goes first. */
	lastStartAt = -Infinity;
	/** When a start withdrawn for lack of patience could have gone. */
	blockedUntil: number | undefined;
	readonly deadline: number;
	private readonly firstAskedAt: number;
	private nextStartAt: number;
	private count = 0;

	constructor(
		private readonly key: ApiKeyPacer,
		private readonly settings: PacerSettings,
		clock: Clock,
		private readonly signal?: AbortSignal,
	) {
		this.answered = key.answered;
		this.firstAskedAt = clock.now();
		this.nextStartAt = this.firstAskedAt;
		this.deadline =
			settings.patienceMs === undefined ? Infinity : this.firstAskedAt + settings.patienceMs;
		signal?.addEventListener('abort', () => key.withdraw(this), { once: true });
		if (signal?.aborted) key.withdraw(this);
	}

	/** The next start, once due; undefined if cancelled or past the deadline (`blockedUntil`). */
	async nextStart(): Promise<Start | undefined> {
		return this.signal?.aborted ? undefined : await this.key.take(this);
	}

	/** What came of the request of `start`: the key's pacer learns from it (ApiKeyPacer.answered). */
	readonly answered: (start: Start, answer: Answer) => void;

	/** When this run's own ceilings allow its next start. */
	earliest(): number {
		return Math.max(this.nextStartAt, this.batchStart(this.count));
	}

	/** Records a start given to this run at `at`, which was due at `due`. */
	started(at: number, due: number): void {
		this.count++;
		this.lastStartAt = at;
		// From the slot this start was due, not from when the timer fired: a timer that fires a
		// little late (a busy event loop) would otherwise slow every later start too.
		const interval = this.settings.maxPerSecond > 0 ? 1000 / this.settings.maxPerSecond : 0;
		this.nextStartAt = Math.max(due, at - interval) + interval;
	}

	private batchStart(index: number): number {
		const batch = this.settings.batch;
		if (!batch || batch.size <= 0 || batch.intervalMs <= 0) return 0;
		return this.firstAskedAt + Math.floor(index / batch.size) * batch.intervalMs;
	}
}
