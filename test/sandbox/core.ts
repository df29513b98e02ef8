// Everything one sandbox instance holds; reset() returns it to how startSandbox left it.
import { principalsByKey } from './auth';
import { FaultInjector } from './faults';
import { IdempotencyStore } from './idempotency';
import { RateLimiter } from './rateLimiter';
import { RequestLog } from './requestLog';
import type { Principal } from './router';
import { Store } from './store';
import type { ListShape, SandboxKeys } from './types';
import { WebhookEmitter } from './webhook';

export interface Settings {
	quoteTtlMs: number;
	rateLimitPerSecond: number | null;
	/** Rate-limit headers on every answer while a limit is set, not only X-RateLimit-Limit on a 429. */
	rateHeaders: boolean;
	/** Each partner request is held this long before the API sees it, and its answer again before it leaves. */
	latencyMs: number;
	listShape: ListShape;
	/** Replay-refusals mode: a handler's 4xx other than 409 and 429 is stored for replay too. */
	replayRefusals: boolean;
	/**
	 * Repeat-actions mode: a new Idempotency-Key books a booked quote again, pays a paid or pending
	 * booking or quotation again and accepts accepted credit again, as an API that guards against
	 * repeats by the key alone would, so a test can count what a client did twice.
	 */
	repeatActions: boolean;
}

export class SandboxCore {
	readonly store = new Store();
	readonly idempotency = new IdempotencyStore();
	readonly log = new RequestLog();
	readonly webhooks = new WebhookEmitter();
	readonly limiter: RateLimiter;
	readonly faults: FaultInjector;
	readonly principals: Map<string, Principal>;
	settings: Settings;

	constructor(
		private readonly initial: Settings,
		seed: number,
		readonly keys: SandboxKeys,
	) {
		this.settings = { ...initial };
		this.principals = principalsByKey(keys);
		this.limiter = new RateLimiter(initial.rateLimitPerSecond);
		this.faults = new FaultInjector(seed);
	}

	reset(): void {
		this.settings = { ...this.initial };
		this.store.reset();
		this.idempotency.clear();
		this.log.clear();
		this.webhooks.forget();
		this.limiter.reset(this.initial.rateLimitPerSecond);
		this.faults.reset();
	}
}
