import type { StartLog } from './startLog';
import { WINDOW_MS } from './startLog';

// What one API key's answers teach about its limit: named states, and pure transitions (a state
// and an answer in, the next state out), and when the next start may go. KeyLimit holds the
// state and the bookkeeping these rules read (the start log, the API's quota, a pause).
//
//   unknown   ─ 429 (or "Remaining: 0") ─────────▶ atBest, or belowBest when it took more before
//   atBest    ─ probe accepted ──────────────────▶ climbed (limit + 1, on trial)
//   climbed   ─ probe accepted ──────────────────▶ climbed (limit + 1)
//             ─ took the new limit in one window ▶ atBest
//             ─ 429 for a start since the climb ─▶ atBest (back to `from`, next climb later)
//   atBest, belowBest ─ 429 since the last change ▶ belowBest (lower; atBest once at 1)
//   belowBest ─ probe accepted ──────────────────▶ atBest (back to `best`)
//   a refused probe stays put, and the next one waits longer.

/** Unknown limit: at most this many starts beyond what the API took: ≤ 5 refused meeting it. */
const FIRST_STEP = 5;
/** A 429 while paced keeps this share of the limit: gentler than halving, returns restore it. */
const DECREASE = 0.7;
/** Below the best, a return is tried this long after the drop: once the window turned over. */
const RETURN_AFTER_MS = 1000;
/** Each refused return waits this many times longer than the one before... */
const RETURN_BACKOFF = 1.5;
/** ...at most this long: a limit that comes back is found within two windows. */
const MAX_RETURN_AFTER_MS = 2000;
/** At the best, one more is tried two windows after it was reached: a climb is rarely refused. */
const CLIMB_AFTER_MS = 2000;
/** Each refused climb (and each climb undone) waits this many times longer than the last... */
const CLIMB_BACKOFF = 2;
/** ...at most this long: at the true limit, a try every 16 windows (1 refused in 800 at 50/s). */
const MAX_CLIMB_AFTER_MS = 16_000;
/** Within a window, starts may come at this many times the limit's average pace: half bursts. */
const SPREAD = 2;

/** What every state with a limit keeps. */
export interface Known {
	/** Starts per window the API accepts, as far as its answers tell. */
	limit: number;
	/** Last limit change or refused probe: the next probe waits from it; a 429 before it is old. */
	changedAt: number;
	/** How long after `changedAt` one more than the best is tried (0: once the window is full). */
	climbAfter: number;
	/** How long after a climb undone the next is tried: longer after each, reset once one stands. */
	climbWait: number;
}

/** No 429 yet: the starts still counted stay FIRST_STEP above what the API was seen to take. */
export interface Unknown {
	name: 'unknown';
}

/** At the best limit the API took: one more is tried `climbAfter` later, unless it stated this. */
export interface AtBest extends Known {
	name: 'atBest';
}

/**
 * Raised above `from` by accepted probes, on trial (a probe may only have found a window edge's
 * room): a 429 since undoes it; the API taking it within one window (`checkedAt`) makes it stand.
 */
export interface Climbed extends Known {
	name: 'climbed';
	from: number;
	checkedAt: number;
}

/** Lowered below the `best` the API took (it dropped, or others use the key): returns are tried. */
export interface BelowBest extends Known {
	name: 'belowBest';
	best: number;
	/** How long after `changedAt` a return to `best` is tried: longer after each refused. */
	returnAfter: number;
}

export type KnownState = AtBest | Climbed | BelowBest;
export type LimitState = Unknown | KnownState;

export const UNKNOWN: Unknown = { name: 'unknown' };

/** What an answer tells, with what the key's bookkeeping knows when it comes. */
export interface Heard {
	now: number;
	/** When the answered request left, and whether it tried one more than the limit. */
	at: number;
	probe: boolean;
	/** The limit the API stated on this answer (X-RateLimit-Limit), if it did. */
	told: number | undefined;
	/** Requests the API accepted in the last window, this one included when accepted. */
	accepted: number;
	/** The most starts the API was seen to take within one window (read only when needed). */
	tookInOneWindow: () => number;
}

/** What the key's bookkeeping tells when a start is asked for. */
export interface Asked {
	now: number;
	/** No start before this: the API asked to wait before any limit was known. */
	pausedUntil: number;
	/** When the quota the API said remains (X-RateLimit-Remaining) is spent: its reset. */
	quotaSpentUntil: number | undefined;
	lastStartAt: number;
	/** A probe is in flight (one at a time). */
	probing: boolean;
	/** The limit the API last stated, whoever else shares the key: no climb past it. */
	stated: number | undefined;
	starts: Pick<StartLog, 'proven' | 'countedSince' | 'leaving'>;
}

/** When the next start may go (Infinity: once a request in flight ends), and whether it probes. */
export interface Slot {
	at: number;
	probe: boolean;
}

export function nextSlot(state: LimitState, asked: Asked): Slot {
	const { now, pausedUntil, quotaSpentUntil, starts } = asked;
	if (state.name === 'unknown') {
		// No wait while fewer starts may still count than FIRST_STEP above what the API was seen
		// to take; else until the first of them leaves its window. No more than the quota said.
		const { counted, firstLeavesAt } = starts.countedSince(now);
		const room = counted < starts.proven + FIRST_STEP ? -Infinity : firstLeavesAt;
		return { at: Math.max(pausedUntil, room, quotaSpentUntil ?? -Infinity), probe: false };
	}
	// Once fewer than `limit` starts are still counted by the API, or now for a probe.
	const { limit } = state;
	const spaced = Math.max(pausedUntil, asked.lastStartAt + WINDOW_MS / (limit * SPREAD));
	const leaving = starts.leaving(now);
	if (leaving.length < limit) return { at: spaced, probe: false };
	// One more is tried only while the API says there is room, and one at a time.
	const mayProbe = !asked.probing && quotaSpentUntil === undefined;
	if (mayProbe && probeDue(state, now, asked.stated)) return { at: spaced, probe: true };
	leaving.sort((a, b) => a - b);
	return { at: Math.max(spaced, leaving[leaving.length - limit]), probe: false };
}

/** Whether the wait before one start more than the limit is over. */
export function probeDue(state: KnownState, now: number, stated: number | undefined): boolean {
	if (state.name === 'belowBest') return now - state.changedAt >= state.returnAfter;
	if (stated !== undefined && state.limit >= stated) return false; // the API said so
	return now - state.changedAt >= state.climbAfter;
}

/** What an answer without a 429 teaches; `full`: it said X-RateLimit-Remaining: 0. */
export function afterAccepted(state: LimitState, heard: Heard, full: boolean): LimitState {
	// The API says its window is full: the limit, learned without a 429.
	if (state.name === 'unknown') return full ? learned(heard) : state;
	const checked = state.name === 'climbed' ? checkClimb(state, heard) : state;
	if (!heard.probe) return checked;
	const { now } = heard;
	// A request beyond the limit went through: back to the best one the API took.
	if (checked.name === 'belowBest') {
		return { name: 'atBest', ...knownOf(checked), limit: checked.best, changedAt: now };
	}
	// One more than the best went through: the API takes more now (another sender stopped), or the
	// probe only found a place the window had left (answers tell its edges roughly): on trial.
	const { from, checkedAt } =
		checked.name === 'climbed' ? checked : { from: checked.limit, checkedAt: -Infinity };
	return {
		name: 'climbed',
		from,
		checkedAt,
		limit: checked.limit + 1,
		changedAt: now,
		climbAfter: 0,
		climbWait: checked.climbWait,
	};
}

/**
 * What a 429 teaches, or 'pause' when nothing went through lately (others used the key's quota):
 * it says nothing of the rate, and every start waits as the API asked.
 */
export function afterThrottled(state: LimitState, heard: Heard): LimitState | 'pause' {
	const { now, told, accepted } = heard;
	if (state.name === 'unknown') {
		return accepted === 0 && told === undefined ? 'pause' : learned(heard);
	}
	if (heard.probe) {
		// Not more yet: try again later, later each time.
		if (state.name === 'belowBest') {
			const returnAfter = Math.min(MAX_RETURN_AFTER_MS, state.returnAfter * RETURN_BACKOFF);
			return { ...state, changedAt: now, returnAfter };
		}
		const longer = CLIMB_BACKOFF * state.climbAfter || CLIMB_AFTER_MS;
		return { ...state, changedAt: now, climbAfter: Math.min(MAX_CLIMB_AFTER_MS, longer) };
	}
	if (heard.at < state.changedAt) return state; // sent before the limit last changed
	if (state.name === 'climbed') {
		// Refused right after climbing: the climb was wrong, not the limit it climbed from.
		const climbWait = Math.min(MAX_CLIMB_AFTER_MS, CLIMB_BACKOFF * state.climbWait);
		return { name: 'atBest', limit: state.from, changedAt: now, climbAfter: climbWait, climbWait };
	}
	// The limit dropped, or others use the key: lower it (to what the API says, when it can be).
	const said = told !== undefined && told <= accepted + 1 ? told : undefined;
	const limit = Math.max(1, Math.min(state.limit - 1, said ?? Math.floor(state.limit * DECREASE)));
	const climbAfter = Math.max(state.climbAfter, CLIMB_AFTER_MS);
	const lowered = { limit, changedAt: now, climbAfter, climbWait: state.climbWait };
	if (state.name === 'belowBest') return atOrBelow(lowered, state.best, state.returnAfter);
	return atOrBelow(lowered, state.limit);
}

/**
 * The first limit: what the API accepted in the last window, or the limit it states when that
 * is not more than it accepted (a per-hour limit is not a per-second one). What it took in one
 * window before (more, if the limit just dropped) is where a return aims.
 */
function learned({ now, told, accepted, tookInOneWindow }: Heard): KnownState {
	const limit = told !== undefined && told <= accepted + 1 ? told : Math.max(1, accepted);
	const first = { limit, changedAt: now, climbAfter: CLIMB_AFTER_MS, climbWait: CLIMB_AFTER_MS };
	return atOrBelow(first, Math.max(limit, tookInOneWindow()));
}

/** A climb stands once the API took it within one window: a later 429 is a drop, not a mistake. */
function checkClimb(state: Climbed, heard: Heard): KnownState {
	const { now } = heard;
	if (now - Math.max(state.changedAt, state.checkedAt) < WINDOW_MS) return state;
	if (heard.tookInOneWindow() < state.limit) return { ...state, checkedAt: now };
	return { name: 'atBest', ...knownOf(state), climbWait: CLIMB_AFTER_MS };
}

/** At `known.limit` of the `best` the API took: at its best, or below it, with returns to try. */
function atOrBelow(known: Known, best: number, returnAfter = RETURN_AFTER_MS): AtBest | BelowBest {
	return known.limit < best
		? { name: 'belowBest', ...known, best, returnAfter }
		: { name: 'atBest', ...known };
}

function knownOf({ limit, changedAt, climbAfter, climbWait }: Known): Known {
	return { limit, changedAt, climbAfter, climbWait };
}
