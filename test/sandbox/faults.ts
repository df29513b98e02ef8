// Injected failures. Deterministic failNext rules act in four phases: answering rules on arrival
// (before anything else), slow rules just before the handler, refuse and bigList rules instead of
// the handler, reset rules once a 2xx is committed.
// Then seeded random rates, the unfiltered dropAfterCommit and the global delay.
import {
	answerFor,
	bigListAnswer,
	type FaultAnswer,
	refusalAnswer,
	statusAnswer,
} from './faultAnswers';
import { describePathMatcher, matchesPath } from './paths';
import { seededRandom } from './rng';
import type { FaultKind, FaultPlan, FaultRule, ListShape } from './types';

type Phase = 'arrival' | 'beforeHandler' | 'handler' | 'afterCommit';

const PHASE_OF: Record<FaultKind, Phase> = {
	status: 'arrival',
	redirect: 'arrival',
	html200: 'arrival',
	html502: 'arrival',
	empty200: 'arrival',
	trickle: 'arrival',
	noHeaders: 'arrival',
	gzipBomb: 'arrival',
	slow: 'beforeHandler',
	refuse: 'handler',
	bigList: 'handler',
	resetAfterCommit: 'afterCommit',
};

export interface FaultTarget {
	method: string;
	/** After the base /api/v1 (or the full path outside it). */
	path: string;
	fullPath: string;
	/** The query string with its "?", or "". */
	search: string;
}

export class FaultInjector {
	private rules: Array<FaultRule & { remaining: number }> = [];
	private plan: FaultPlan = {};
	private dropsLeft = 0;
	private random: () => number;

	constructor(private readonly seed: number) {
		this.random = seededRandom(seed);
	}

	set(plan: FaultPlan): void {
		this.plan = { ...plan };
		this.rules = (plan.failNext ?? []).map((f) => ({ ...f, remaining: f.times ?? 1 }));
		this.dropsLeft = plan.dropAfterCommit ?? 0;
	}

	reset(): void {
		this.set({});
		this.random = seededRandom(this.seed);
	}

	get delayMs(): number {
		return this.plan.delayMs ?? 0;
	}

	/** Consumes one use of the first rule of this phase that matches the request. */
	private take(phase: Phase, req: FaultTarget): FaultRule | undefined {
		const rule = this.rules.find(
			(f) =>
				PHASE_OF[f.kind ?? 'status'] === phase &&
				(!f.method || f.method.toUpperCase() === req.method) &&
				// A list is what a GET reads: a POST's answer is stored for replay, a stream is not.
				(f.kind !== 'bigList' || req.method === 'GET') &&
				matchesPath(f.path, req.path, req.fullPath),
		);
		if (rule && --rule.remaining <= 0) this.rules.splice(this.rules.indexOf(rule), 1);
		return rule;
	}

	/** On arrival: the answer that replaces the API for this request, if any. */
	answerOnArrival(req: FaultTarget, redirectOrigin: string): FaultAnswer | undefined {
		const rule = this.take('arrival', req);
		if (rule) return answerFor(rule, redirectOrigin, `${req.fullPath}${req.search}`);
		if (this.plan.rate500 && this.random() < this.plan.rate500) {
			return statusAnswer(500, undefined, 'rate500');
		}
		if (this.plan.rate503 && this.random() < this.plan.rate503) {
			return statusAnswer(503, undefined, 'rate503');
		}
		return undefined;
	}

	/** Just before the handler: how long a slow rule holds this request (0 = none). */
	takeSlow(req: FaultTarget): number {
		const rule = this.take('beforeHandler', req);
		return rule?.kind === 'slow' ? rule.delayMs : 0;
	}

	/**
	 * In place of the handler (the key is reserved): the refusal a refuse rule answers, or the list
	 * a bigList rule answers (in the support case list's configured shape), if any.
	 */
	answerInHandler(req: FaultTarget, listShape: ListShape): FaultAnswer | undefined {
		const rule = this.take('handler', req);
		if (rule?.kind === 'refuse') return refusalAnswer(rule);
		if (rule?.kind === 'bigList') return bigListAnswer(rule, req.path, listShape);
		return undefined;
	}

	/** After a 2xx, non-replayed answer was committed: whether to reset instead of answering. */
	takeReset(req: FaultTarget): 'resetAfterCommit' | 'dropAfterCommit' | undefined {
		if (this.take('afterCommit', req)) return 'resetAfterCommit';
		if (req.method === 'POST' && this.dropsLeft > 0) {
			this.dropsLeft--;
			return 'dropAfterCommit';
		}
		return undefined;
	}

	/** What is still pending, with RegExps as strings (JSON-safe). */
	view(): FaultPlan & { dropAfterCommitLeft: number } {
		return {
			...this.plan,
			failNext: this.rules.map(({ remaining, path, ...f }) => ({
				...f,
				times: remaining,
				path: describePathMatcher(path),
			})),
			dropAfterCommitLeft: this.dropsLeft,
		};
	}
}
