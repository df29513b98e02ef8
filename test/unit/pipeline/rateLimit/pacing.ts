import {
	ApiKeyPacer,
	RunPacer,
	type PacerSettings,
} from '../../../../nodes/PartnerLogistics/pipeline/rateLimit/pacer';
import type { Start } from '../../../../nodes/PartnerLogistics/pipeline/rateLimit/start';
import { Retries } from '../../../../nodes/PartnerLogistics/pipeline/request/retry';

/**
 * A virtual clock: time moves only from one timer to the next, so a batch of requests over many
 * seconds runs in milliseconds and exactly the same every time.
 */
export class VirtualClock {
	private time = 0;
	private seq = 0;
	private readonly timers: Array<{ at: number; seq: number; resolve: () => void }> = [];

	now = () => this.time;

	wait = async (ms: number) =>
		await new Promise<void>((resolve) => {
			this.timers.push({ at: this.time + Math.max(0, ms), seq: this.seq++, resolve });
		});

	/** Fires the timers in time order until `done`; between timers every promise settles. */
	async run(done: () => boolean): Promise<void> {
		while (!done()) {
			for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
			if (done()) return;
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift();
			if (!next) throw new Error('stuck: no timer and not done');
			this.time = Math.max(this.time, next.at);
			next.resolve();
		}
	}
}

export interface ApiOptions {
	/** The API's limit per rolling second at a moment (ms on the clock). */
	limit: (at: number) => number;
	/** One way, varying by a tenth either side (plus a millisecond): a steady network's jitter. */
	latencyMs: number;
	/** What the API says of its limit: on its 429s (as the sandbox), on every answer, or nothing. */
	headers?: 'on429' | 'always' | 'none';
}

/** A node run of `items`, with its own settings, in this process or another (`process`). */
export type Batch = { items: number; process?: number } & Partial<PacerSettings>;

export interface RunResult {
	/** From the run's first request asked for to its last answer. */
	timeMs: number;
	requests: number;
	refused: number;
}

/**
 * The pipeline's sending (one key's pacer, each run's retries as the API's Retry-After asks)
 * against an API limiting each key like the sandbox: N accepted per rolling second, a 429 with
 * Retry-After in whole seconds, at least one. Other senders on the key (another n8n, another
 * queue-mode worker) can be added with `others`; they use the key's quota unseen.
 */
export class PacedApi {
	readonly clock = new VirtualClock();
	readonly apiKey: ApiKeyPacer;
	/** When the API accepted each request, any sender's. */
	readonly accepted: number[] = [];
	/** Each 429 this process's runs met: when its start left, and when the pacer heard of it. */
	readonly refusals: Array<{ start: Start; heardAt: number }> = [];
	private readonly window: number[] = [];
	private seed = 1;
	/** The clock time the limit schedule counts from. */
	private origin = 0;

	constructor(private options: ApiOptions) {
		this.apiKey = new ApiKeyPacer(this.clock);
	}

	/** Lets `ms` pass with nothing sent (the set-up between two runs). */
	async idle(ms: number): Promise<void> {
		let done = false;
		void this.clock.wait(ms).then(() => (done = true));
		await this.clock.run(() => done);
	}

	/** The API changes (e.g. before a later run): its limit schedule counts from now. */
	reconfigure(options: ApiOptions): void {
		this.options = options;
		this.origin = this.clock.now();
	}

	random = () => (this.seed = (this.seed * 16807) % 2147483647) / 2147483647;

	/**
	 * Runs these batches on the key at once, each a node run of `items` with its own settings; a
	 * batch with `process` set runs in another n8n process (a queue-mode worker): its own pacer.
	 */
	async runs(batches: Batch[]): Promise<RunResult[]> {
		let running = batches.length;
		const results = batches.map(async (batch) => {
			const result = await this.batch(batch);
			running--;
			return result;
		});
		await this.clock.run(() => running === 0);
		return await Promise.all(results);
	}

	/** Another sender taking `perSecond` of the key's quota from `from` to `until` (ms). */
	others(perSecond: number, from: number, until: number): void {
		void (async () => {
			await this.clock.wait(from);
			while (this.clock.now() < until) {
				this.answer(this.clock.now());
				await this.clock.wait(1000 / perSecond);
			}
		})();
	}

	/** The most requests the API accepted in any second from `from` on. */
	peakRate(from: number, to = Infinity): number {
		const inRange = this.accepted.filter((at) => at >= from && at < to);
		return Math.max(
			0,
			...inRange.map((at) => inRange.filter((o) => o >= at && o < at + 1000).length),
		);
	}

	private answer(at: number) {
		while (this.window.length && this.window[0] <= at - 1000) this.window.shift();
		const limit = this.options.limit(at - this.origin);
		const said = this.options.headers ?? 'on429';
		if (this.window.length < limit) {
			this.window.push(at);
			this.accepted.push(at);
			return {
				status: 201,
				limit: said === 'always' ? limit : undefined,
				remaining: said === 'always' ? limit - this.window.length : undefined,
			};
		}
		const waitMs = this.window[this.window.length - limit] + 1000 - at;
		return {
			status: 429,
			retryAfter: String(Math.max(1, Math.ceil(waitMs / 1000))),
			limit: said === 'none' ? undefined : limit,
			remaining: said === 'always' ? 0 : undefined,
			resetMs: said === 'always' ? waitMs : undefined,
		};
	}

	/** The key's pacer in each other process, made on first use. */
	private readonly processes = new Map<number, ApiKeyPacer>();

	private async batch({ items, process, ...settings }: Batch) {
		const { clock } = this;
		let apiKey = this.apiKey;
		if (process !== undefined) {
			apiKey = this.processes.get(process) ?? new ApiKeyPacer(clock);
			this.processes.set(process, apiKey);
		}
		const pacer = new RunPacer(apiKey, { concurrency: 20, maxPerSecond: 0, ...settings }, clock);
		const began = clock.now();
		const { latencyMs } = this.options;
		const hop = () => clock.wait(latencyMs * (0.9 + 0.2 * this.random()) + this.random());
		let requests = 0;
		let refused = 0;
		let next = 0;
		const worker = async () => {
			while (next < items) {
				next++;
				const retries = new Retries({ maxRetries: 10, faultRetries: 3 }, this.random);
				for (;;) {
					const start = (await pacer.nextStart()) as Start;
					await hop();
					requests++;
					const { status, retryAfter, ...headers } = this.answer(clock.now());
					await hop();
					if (status !== 429) {
						pacer.finished(start, { kind: 'accepted', headers });
						break;
					}
					refused++;
					this.refusals.push({ start, heardAt: clock.now() });
					const decision = retries.decide({ kind: 'status', status, retryAfter }, clock.now());
					pacer.finished(start, {
						kind: 'throttled',
						headers,
						waitMs: decision.retry ? decision.delayMs : undefined,
					});
					if (!decision.retry) throw new Error('the API kept refusing');
					await clock.wait(decision.delayMs);
				}
			}
		};
		const concurrency = settings.concurrency ?? 20;
		await Promise.all(Array.from({ length: Math.min(concurrency, items) }, worker));
		return { timeMs: clock.now() - began, requests, refused };
	}
}

/** One batch of `items` against a fresh key (nothing learned yet). */
export async function rateLimitedBatch(
	options: ApiOptions & { items: number; concurrency: number },
): Promise<RunResult> {
	const [result] = await new PacedApi(options).runs([
		{ items: options.items, concurrency: options.concurrency },
	]);
	return result;
}
