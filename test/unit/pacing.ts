import { Pacer } from '../../nodes/PartnerLogistics/pipeline/pacer';
import { Retries } from '../../nodes/PartnerLogistics/pipeline/retry';

/**
 * A virtual clock: time moves only from one timer to the next, so a batch of requests over many
 * seconds runs in milliseconds and exactly the same every time.
 */
class VirtualClock {
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

export interface BatchOptions {
	items: number;
	concurrency: number;
	/** The API's limit per rolling second at a moment (ms since the batch started). */
	limit: (at: number) => number;
	/** One way, varying from half to one and a half times this. */
	latencyMs: number;
	/** Whether a 429 says the limit (X-RateLimit-Limit), as the sandbox does. */
	stateLimit?: boolean;
}

/**
 * The pipeline's sending (pacer, retries as the API's Retry-After asks) against a limiter like
 * the sandbox's: N accepted per rolling second, a 429 with Retry-After in whole seconds, at least
 * one. Returns how long the batch took and how many requests the API refused.
 */
export async function rateLimitedBatch(options: BatchOptions) {
	const clock = new VirtualClock();
	let seed = 1;
	const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
	const accepted: number[] = [];
	let requests = 0;
	let refused = 0;
	const api = (at: number) => {
		requests++;
		while (accepted.length && accepted[0] <= at - 1000) accepted.shift();
		if (accepted.length < options.limit(at)) {
			accepted.push(at);
			return { status: 201 };
		}
		refused++;
		const retryAfter = String(Math.max(1, Math.ceil((accepted[0] + 1000 - at) / 1000)));
		return { status: 429, retryAfter, limit: options.limit(at) };
	};
	const pacer = new Pacer({ concurrency: options.concurrency, maxPerSecond: 0 }, clock);
	const hop = () => clock.wait(options.latencyMs * (0.5 + random()));
	let next = 0;
	const worker = async () => {
		while (next < options.items) {
			next++;
			const retries = new Retries({ maxRetries: 10, faultRetries: 3 }, random);
			for (;;) {
				const startedAt = await pacer.nextStart();
				await hop();
				const answer = api(clock.now());
				await hop();
				if (answer.status !== 429) {
					pacer.accepted(startedAt);
					break;
				}

				const decision = retries.next(
					{ kind: 'status', status: 429, retryAfter: answer.retryAfter },
					clock.now(),
				);
				pacer.throttled(startedAt, {
					told: options.stateLimit === false ? undefined : answer.limit,
					waitMs: decision.retry ? decision.delayMs : undefined,
				});
				if (!decision.retry) throw new Error('the API kept refusing');
				await clock.wait(decision.delayMs);
			}
		}
	};
	let done = false;
	const all = Promise.all(Array.from({ length: options.concurrency }, worker)).then(
		() => (done = true),
	);
	await clock.run(() => done);
	await all;
	return { timeMs: clock.now(), requests, refused };
}
