import { WINDOW_MS, type Slot, type Start } from './start';

// When one start beyond the limit is tried (a probe): back to the limit a 429 lowered, or above
// it. Read from the log of starts (sentLog.ts), as it stands when a start is asked for.

/**
 * A probe is one start beyond the limit. Below the limit a 429 lowered, a return to it is tried a
 * window after the last 429, each one since 1.5 times later, at most 2 s: a limit restored is
 * found within two windows. At it, a climb one above is tried 2 s after the last 429, each climb
 * the log holds making it twice as late, at most 16 s (at the true limit, 1 refused in 800 at
 * 50/s); while climbs go through, the next goes as soon as the window is full.
 */
const RETURN = { firstMs: WINDOW_MS, factor: 1.5, mostMs: 2000 };
const CLIMB = { firstMs: 2000, factor: 2, mostMs: 16_000 };

/** Whether one start beyond `limit` may go now: back to the limit a 429 lowered, or above it. */
export function probeDue(facts: History, limit: number, now: number): Slot['probe'] {
	const { lastProbe, lastChangeAt } = facts;
	if (lastProbe && lastProbe.endedAt === undefined) return undefined; // one at a time
	if (limit < facts.best) {
		const wait = Math.min(RETURN.mostMs, RETURN.firstMs * RETURN.factor ** facts.returns);
		return now - lastChangeAt >= wait ? 'return' : undefined;
	}
	// No climb past what the API says its limit is.
	if (facts.stated !== undefined && limit >= facts.stated) return undefined;
	// While climbs go through (nothing since), the next goes as soon as the window is full.
	const climbing = lastProbe?.probe === 'climb' && lastProbe.outcome === 'accepted';
	if (climbing && lastProbe.endedAt! >= lastChangeAt) return 'climb';
	const wait = Math.min(CLIMB.mostMs, CLIMB.firstMs * CLIMB.factor ** facts.climbs);
	return now - lastChangeAt >= wait ? 'climb' : undefined;
}

export interface History {
	readonly lastProbe: Start | undefined;
	/** When the limit last changed, or a probe was answered. */
	readonly lastChangeAt: number;
	/** The limit the API stated last. */
	readonly stated: number | undefined;
	/**
	 * Where a return aims: the limit before the 429s that lowered it since the last probe went
	 * through; before any, what the API took before it first refused.
	 */
	readonly best: number;
	/** Climbs tried, as far as the log goes back; returns tried since the limit was last lowered. */
	readonly climbs: number;
	readonly returns: number;
	/** The limit the climbs since it last changed started from (Infinity: none). */
	readonly climbedFrom: number;
}

/** What the log shows of the limit's past, up to the answer of `until` (by default, all). */
export function history(log: Start[], mostTaken: number, until?: Start): History {
	let lastProbe: Start | undefined;
	let lastChangeAt = -Infinity;
	let stated: number | undefined;
	let statedAt = -Infinity;
	let loweredFrom = 0;
	let probed = false;
	let climbs = 0;
	let changedAt = -Infinity;
	let loweredAt = -Infinity;
	for (const start of log) {
		if (start.probe === 'climb') climbs++;
		if (start.probe) lastProbe = start;
		if (start.endedAt === undefined || start === until) continue;
		if (start.stated !== undefined && start.endedAt > statedAt) {
			[stated, statedAt] = [start.stated, start.endedAt];
		}
		if (start.probe && start.outcome === 'accepted') [probed, loweredFrom] = [true, 0];
		if (start.probe || start.changed) lastChangeAt = Math.max(lastChangeAt, start.endedAt);
		if (start.changed) changedAt = Math.max(changedAt, start.endedAt);
		if (start.changed === 'lowered') {
			[loweredAt, loweredFrom] = [start.endedAt, Math.max(loweredFrom, start.limit)];
		}
	}
	let returns = 0;
	let climbedFrom = Infinity;
	for (let i = log.length - 1; i >= 0 && log[i].at > Math.min(loweredAt, changedAt); i--) {
		const start = log[i];
		if (start.probe === 'return' && start.at > loweredAt) returns++;
		if (start.probe === 'climb' && start.at > changedAt && start.outcome === 'accepted') {
			climbedFrom = Math.min(climbedFrom, start.limit);
		}
	}
	const best = probed ? loweredFrom : Math.max(loweredFrom, mostTaken);
	return { lastProbe, lastChangeAt, stated, best, climbs, returns, climbedFrom };
}
