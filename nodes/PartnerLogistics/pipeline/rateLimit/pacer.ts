import { addStart, learn, nextSlot, NOTHING_LEARNED, type Learned } from './sentLog';
import type { Outcome, Start } from './start';

export type Clock = { now(): number; wait(ms: number): Promise<void> };

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
type Ticket = { run: RunPacer; give(start: Start | undefined): void };

/**
 * The starts of every run on one API key in this n8n process, given out as the key's limit allows
 * (sentLog.ts). When several runs wait, the run served longest ago goes first: a single booking
 * arriving by webhook takes the next free start, not the place behind a batch's twenty. Each
 * check-and-reserve is atomic: single-threaded, no await sits between them.
 */
export class ApiKeyPacer {
	private readonly waiting: Ticket[] = [];
	/** The API key's recent starts, every run's, and what their answers said. */
	private readonly log: Start[] = [];
	private learned: Learned = NOTHING_LEARNED;
	/** The first start the API may still count, before a limit is known (its `seq`). */
	private countedFrom = 1;
	/** When the pending timer fires; Infinity when none is pending. */
	private wakeAt = Infinity;

	constructor(private readonly clock: Clock) {}

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

	/** Learns from what came of `start`, and gives out what that frees. */
	finished(start: Start, outcome: Outcome): void {
		const { limit, mostTaken } = this.learned;
		this.learned = learn(this.log, this.learned, start, outcome, this.clock.now());
		// An answer accepted under the same limit frees nothing sooner than the pending timer: its
		// start was counted as in flight until now, and leaves the window no earlier for the answer.
		const same = this.learned.limit === limit && this.learned.mostTaken === mostTaken;
		if (!same || outcome.kind !== 'accepted' || start.probe) this.pump();
	}

	/** When the API key allows the next start. */
	nextSlotAt(): number {
		return this.slot(this.clock.now()).at;
	}

	/** Starts per second the API key is paced at (Infinity before a limit is known): for tests. */
	get rate(): number {
		return this.learned.limit;
	}

	/** No run waits and nothing is in flight: the owner may forget the API key. */
	get idle(): boolean {
		return this.waiting.length === 0 && this.log.every((start) => start.endedAt !== undefined);
	}

	/** Gives out every start that may go now, then sleeps until the next one may. */
	private pump(): void {
		while (this.waiting.length) {
			const now = this.clock.now();
			const slot = this.slot(now);
			let chosen: { ticket: Ticket; due: number } | undefined;
			let next = Infinity;
			for (const ticket of [...this.waiting]) {
				const due = Math.max(slot.at, ticket.run.earliest());
				if (due > ticket.run.deadline && due !== Infinity) {
					this.waiting.splice(this.waiting.indexOf(ticket), 1);
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
			ticket.run.started(now, due);
			ticket.give(addStart(this.log, now, this.learned.limit, slot.probe));
		}
	}

	private slot(now: number) {
		const slot = nextSlot(this.log, this.learned, this.countedFrom, now);
		this.countedFrom = slot.countedFrom;
		return slot;
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
 * Requests per Second, n8n's Batching, an agent's patience) on top of what the API key allows.
 */
export class RunPacer {
	/** When its recent starts were due (the last, or the last batch's): its ceilings, its turn. */
	private readonly starts: number[] = [];
	/** After this no start is waited for (an agent's patience). */
	readonly deadline: number;

	constructor(
		private readonly apiKey: ApiKeyPacer,
		private readonly settings: PacerSettings,
		clock: Clock,
		private readonly signal?: AbortSignal,
	) {
		this.deadline =
			settings.patienceMs === undefined ? Infinity : clock.now() + settings.patienceMs;
		signal?.addEventListener('abort', () => apiKey.withdraw(this), { once: true });
		if (signal?.aborted) apiKey.withdraw(this);
	}

	/** The next start, once due; undefined if cancelled or past the deadline (`blockedUntil`). */
	async nextStart(): Promise<Start | undefined> {
		return this.signal?.aborted ? undefined : await this.apiKey.take(this);
	}

	/** What came of the request of `start`: the API key's pacer learns from it. */
	finished(start: Start, outcome: Outcome): void {
		this.apiKey.finished(start, outcome);
	}

	/** When the next start could go, past the deadline when nextStart gave none for lack of time. */
	get blockedUntil(): number {
		return Math.max(this.apiKey.nextSlotAt(), this.earliest());
	}

	/** When this run was last served: the run served longest ago goes first. */
	get lastStartAt(): number {
		return this.starts.at(-1) ?? -Infinity;
	}

	/** When this run's own ceilings allow its next start. */
	earliest(): number {
		const { maxPerSecond, batch } = this.settings;
		const spaced = maxPerSecond > 0 ? this.lastStartAt + 1000 / maxPerSecond : -Infinity;
		if (!batch || batch.size <= 0 || batch.intervalMs <= 0) return spaced;
		const batchStart = this.starts.at(-batch.size);
		return batchStart === undefined ? spaced : Math.max(spaced, batchStart + batch.intervalMs);
	}

	/** Records a start given to this run at `at`, which was due at `due`. */
	started(at: number, due: number): void {
		// From the slot this start was due, not from when the timer fired: a timer that fires a
		// little late (a busy event loop) would otherwise slow every later start too.
		const { maxPerSecond, batch } = this.settings;
		const interval = maxPerSecond > 0 ? 1000 / maxPerSecond : 0;
		this.starts.push(this.starts.length ? Math.max(due, at - interval) : at);
		if (this.starts.length > Math.max(1, batch?.size ?? 1)) this.starts.shift();
	}
}
