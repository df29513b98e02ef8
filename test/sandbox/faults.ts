// Injected failures: deterministic failNext rules first, then seeded random rates, drops and delays.
import { ApiError } from './errors';
import { describePathMatcher, matchesPath } from './paths';
import { seededRandom } from './rng';
import type { FailNextFault, FaultPlan } from './types';

const FAULT_CODES: Record<FailNextFault['status'], [string, string]> = {
	500: ['INTERNAL_ERROR', 'Internal server error (injected by the sandbox).'],
	502: ['BAD_GATEWAY', 'Bad gateway (injected by the sandbox).'],
	503: ['SERVICE_UNAVAILABLE', 'Service temporarily unavailable (injected by the sandbox).'],
	429: ['RATE_LIMITED', 'Rate limit exceeded (injected by the sandbox).'],
};

function injected(status: FailNextFault['status'], retryAfterSeconds?: number): ApiError {
	const [code, message] = FAULT_CODES[status];
	// A 429 without Retry-After would leave clients guessing, so it always gets one.
	const retryAfter = retryAfterSeconds ?? (status === 429 ? 1 : undefined);
	const headers: Record<string, string> =
		retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
	return new ApiError(status, code, message, { injected: true }, headers);
}

export class FaultInjector {
	private failNext: Array<FailNextFault & { remaining: number }> = [];
	private plan: FaultPlan = {};
	private dropsLeft = 0;
	private random: () => number;

	constructor(private readonly seed: number) {
		this.random = seededRandom(seed);
	}

	set(plan: FaultPlan): void {
		this.plan = { ...plan };
		this.failNext = (plan.failNext ?? []).map((f) => ({ ...f, remaining: f.times ?? 1 }));
		this.dropsLeft = plan.dropAfterCommit ?? 0;
	}

	reset(): void {
		this.set({});
		this.random = seededRandom(this.seed);
	}

	get delayMs(): number {
		return this.plan.delayMs ?? 0;
	}

	/** The injected failure for this request, if any; consumes one use of a failNext rule. */
	pick(method: string, path: string, fullPath: string): ApiError | undefined {
		const rule = this.failNext.find(
			(f) =>
				(!f.method || f.method.toUpperCase() === method) && matchesPath(f.path, path, fullPath),
		);
		if (rule) {
			if (--rule.remaining <= 0) this.failNext.splice(this.failNext.indexOf(rule), 1);
			return injected(rule.status, rule.retryAfterSeconds);
		}
		if (this.plan.rate500 && this.random() < this.plan.rate500) return injected(500);
		if (this.plan.rate503 && this.random() < this.plan.rate503) return injected(503);
		return undefined;
	}

	/** True when this committed POST's response must be dropped. */
	takeDrop(): boolean {
		if (this.dropsLeft <= 0) return false;
		this.dropsLeft--;
		return true;
	}

	/** What is still pending, with RegExps as strings (JSON-safe). */
	view(): FaultPlan & { dropAfterCommitLeft: number } {
		return {
			...this.plan,
			failNext: this.failNext.map(({ remaining, path, ...f }) => ({
				...f,
				times: remaining,
				path: describePathMatcher(path),
			})),
			dropAfterCommitLeft: this.dropsLeft,
		};
	}
}
