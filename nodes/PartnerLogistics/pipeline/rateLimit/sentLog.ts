import { history, probeDue } from './probes';
import { WINDOW_MS, type Outcome, type Slot, type Start } from './start';

// What one API key's requests taught, kept as facts: its recent starts, what each answer was and
// said, and which 429 changed the limit. Each decision is read from these facts and what the
// answers taught (`Learned`), reading only the starts a window may still count: a busy n8n
// reading every start kept (two thousand at a thousand a second) for each start made 1,000 quotes
// on loopback take twice as long (docs/benchmarks.md, "the six-field pacer, on main").

/**
 * Starts kept at least (at 50/s eight seconds: a climb's backoff and more); beyond these, only the
 * starts the window may still count, so that no limit is capped by how many are kept.
 */
const KEEP = 400;
/** No 429 yet: the starts still counted stay this many above the most the API took in a window. */
const FIRST_STEP = 5;
/** A 429 that says nothing usable lowers the limit to this share: gentler than halving. */
const DECREASE = 0.7;
/** Within a window, starts may come at this many times the limit's average pace: half bursts. */
const SPREAD = 2;
/** The most a slow answer adds to the time its start holds a place in the window... */
const MAX_LATE_MS = WINDOW_MS;
/** ...plus this: the start taking the place may reach the API a few ms sooner. */
const ARRIVAL_MARGIN_MS = 5;
/** The longest a quota said spent holds the starts: the longest Retry-After the pipeline waits. */
const MAX_HOLD_MS = 60_000;
const UNANSWERED = {
	endedAt: undefined,
	outcome: undefined,
	stated: undefined,
	changed: undefined,
};

/** Records a start at `at` under `limit`; the oldest beyond KEEP that no window counts is dropped. */
export function addStart(log: Start[], at: number, limit: number, probe?: Slot['probe']): Start {
	// Every record of one shape (each answer's replaces it with the same fields): reading the log
	// stays as fast as reading one kind of object.
	const start: Start = { seq: (log.at(-1)?.seq ?? 0) + 1, at, limit, probe, ...UNANSWERED };
	log.push(start);
	// The last limit the API stated is kept, however long ago (no climb goes past it): a record
	// that states one leaves the front only for a later one.
	while (log.length > KEEP) {
		const oldest = log[0].stated !== undefined && log[1].stated === undefined ? 1 : 0;
		if (log[oldest].at > at - WINDOW_MS - MAX_LATE_MS) break;
		log.splice(oldest, 1);
	}
	return start;
}

/** When the next start may go, and the first start still counted (where the next call reads on). */
export function nextSlot(log: Start[], learned: Learned, countedFrom: number, now: number): Slot {
	const { limit, mostTaken, shortest, quota } = learned;
	// A quota is spent once as many started after its answer's start as it said remained.
	const spent = quota && quota.resetAt > now && lastSeq(log) - quota.seq >= quota.remaining;
	const holdUntil = spent ? quota.resetAt : -Infinity;
	if (limit === Infinity) {
		// No 429 yet: FIRST_STEP above the most the API took in a window, held as the quota says.
		let first = seqIndex(log, countedFrom);
		while (first < log.length && leavesAt(log[first], now, shortest) <= now) first++;
		const room = inWindow(log, first, now, shortest, false).freeAt(mostTaken + FIRST_STEP);
		return { at: Math.max(holdUntil, room), countedFrom: log[first]?.seq ?? lastSeq(log) + 1 };
	}
	// Paced: what the API says remains counts senders unseen (other n8n processes); only probes wait.
	const counted = inWindow(log, atIndex(log, now - WINDOW_MS - MAX_LATE_MS), now, shortest, true);
	const spaced = (log.at(-1)?.at ?? -Infinity) + WINDOW_MS / (limit * SPREAD);
	if (counted.count < limit) return { at: spaced, countedFrom };
	const probe = holdUntil === -Infinity ? probeDue(history(log, mostTaken), limit, now) : undefined;
	if (probe) return { at: spaced, probe, countedFrom };
	return { at: Math.max(spaced, counted.freeAt(limit)), countedFrom };
}

const lastSeq = (log: Start[]) => log.at(-1)?.seq ?? 0;

/** The index of the first start in `log` (in the order they left) of which `before` is false. */
function firstIndex(log: Start[], before: (start: Start) => boolean): number {
	let [low, high] = [0, log.length];
	while (low < high) {
		const middle = (low + high) >> 1;
		if (before(log[middle])) low = middle + 1;
		else high = middle;
	}
	return low;
}
const seqIndex = (log: Start[], seq: number) => firstIndex(log, (start) => start.seq < seq);
const atIndex = (log: Start[], after: number) => firstIndex(log, (start) => start.at <= after);

/** Records what came of `start` at `now` (its record in the log replaced), and what it teaches. */
export function learn(
	log: Start[],
	{ limit, mostTaken, shortest, quota }: Learned,
	start: Start,
	outcome: Outcome,
	now: number,
): Learned {
	const index = log.lastIndexOf(start);
	let sent = start;
	const record = (facts: Partial<Start>) => {
		sent = { ...sent, ...facts };
		if (index >= 0) log[index] = sent;
	};
	record({ endedAt: now, outcome: outcome.kind });
	let mostTakenNow = mostTaken;
	const teach = (taught: number): Learned => ({
		limit: taught,
		mostTaken: mostTakenNow,
		shortest: outcome.kind === 'failed' ? shortest : Math.min(shortest, now - start.at),
		quota,
	});
	if (outcome.kind === 'failed') return teach(limit);
	const { limit: stated, remaining, resetMs } = outcome.headers ?? {};
	const holdFor = (ms: number, left: number) =>
		(quota = { seq: start.seq, remaining: left, resetAt: now + Math.min(ms, MAX_HOLD_MS) });
	record({ stated });
	if (remaining !== undefined) holdFor(resetMs ?? WINDOW_MS, remaining);
	// What the API accepted in the last window, or the limit it states when no more than that (not
	// a per-hour one): read only when an answer teaches a limit.
	const accepted = () =>
		log.filter((s) => s.outcome === 'accepted' && s.endedAt! > now - WINDOW_MS);
	const said = () => (stated !== undefined && stated <= accepted().length + 1 ? stated : undefined);
	const learned = () => {
		record({ changed: 'learned' });
		return teach(said() ?? Math.max(1, accepted().length));
	};
	if (outcome.kind === 'accepted') {
		mostTakenNow = mostTakenWith(log, mostTaken);
		// Saying nothing remains, it tells the limit without a 429.
		if (limit === Infinity) return remaining === 0 ? learned() : teach(limit);
		if (start.probe === 'climb') return teach(limit + 1);
		return teach(start.probe ? Math.max(limit, history(log, mostTaken, sent).best) : limit);
	}
	if (start.probe) return teach(limit); // not yet: the next try waits longer (probeDue)
	if (limit === Infinity) {
		if (accepted().length > 0 || stated !== undefined) return learned();
		// Nothing went through lately: others used the quota. It says nothing of the rate.
		holdFor(outcome.waitMs ?? WINDOW_MS, 0);
		return teach(limit);
	}
	if (start.limit !== limit) return teach(limit); // sent before the limit last changed
	// Refused at a limit climbs reached since it last changed: they were wrong (they found a
	// window's edge, or another sender's pause), not the limit they climbed from.
	const { climbedFrom } = history(log, mostTaken, sent);
	record({ changed: climbedFrom < limit ? 'undone' : 'lowered' });
	const lower = climbedFrom < limit ? climbedFrom : Math.floor(limit * DECREASE);
	return teach(Math.max(1, Math.min(limit - 1, said() ?? lower)));
}

/** What the API key's answers taught: one value, replaced whole by `learn`. */
export interface Learned {
	/** Starts per window the API key is paced at; Infinity before the API refused anything. */
	readonly limit: number;
	/** The most starts the API was seen to take within one window. */
	readonly mostTaken: number;
	/** The shortest round trip an answer took (Infinity before any). */
	readonly shortest: number;
	/** The latest answer's X-RateLimit-Remaining (or a 429's pause): `remaining` more after start
	 * `seq`, until `resetAt`. */
	readonly quota?: { readonly seq: number; readonly remaining: number; readonly resetAt: number };
}

export const NOTHING_LEARNED: Learned = { limit: Infinity, mostTaken: 0, shortest: Infinity };

/**
 * When `start` stops counting: a window after it left, plus however much longer than the shortest
 * its trip took (it may have arrived that much later: a busy event loop, a cold connection),
 * capped, plus the margin. One refused never counts. Once `paced`, one sent before any limit was
 * known counts its whole trip: the first requests may arrive far later than the shortest shows.
 */
function leavesAt(start: Start, now: number, shortest: number, paced = false): number {
	if (start.outcome === 'throttled') return -Infinity;
	const trip = Math.min(MAX_LATE_MS, (start.endedAt ?? now) - start.at);
	const quickest = Number.isFinite(shortest) ? shortest : 0;
	const late = paced && start.limit === Infinity ? trip : Math.max(0, trip - quickest);
	return start.at + WINDOW_MS + late + ARRIVAL_MARGIN_MS;
}

/** The starts from `first` on the API may still count at `now`; when fewer than `allowed` do. */
function inWindow(log: Start[], first: number, now: number, shortest: number, paced: boolean) {
	// Starts are logged in the order they left, each leaving the window WINDOW_MS to WINDOW_MS +
	// MAX_LATE_MS after it (plus the margin): the later ones need no reckoning.
	const surely = (start: Start) => start.at + WINDOW_MS + ARRIVAL_MARGIN_MS;
	const leaves = (start: Start) => leavesAt(start, now, shortest, paced);
	// Before a limit is known, those that left within a window are counted by where they begin, not
	// read one by one (a thousand at loopback pace): one refused among them holds its place a little
	// long, and that is rare (a 429 teaches a limit, or pauses for a window or more).
	const end = paced
		? log.length
		: Math.max(first, atIndex(log, now - WINDOW_MS - ARRIVAL_MARGIN_MS));
	let count = log.length - end;
	for (let i = first; i < end; i++) {
		const start = log[i];
		if (surely(start) > now ? start.outcome !== 'throttled' : leaves(start) > now) count++;
	}
	return {
		count,
		freeAt(allowed: number): number {
			if (count < allowed) return -Infinity;
			// When the count falls to `allowed - 1`: the (count - allowed + 1)th start to leave.
			const least: number[] = [];
			const rank = count - allowed;
			for (let i = first; i < log.length; i++) {
				if (least.length > rank && surely(log[i]) >= least[rank]) break;
				const at = leaves(log[i]);
				if (at <= now || (least.length > rank && at >= least[rank])) continue;
				const later = least.findIndex((other) => other > at);
				least.splice(later < 0 ? least.length : later, 0, at);
				if (least.length > rank + 1) least.pop();
			}
			return least[rank];
		},
	};
}

/**
 * `mostTaken`, or the starts the API took in one window up to the latest it took, when more (not
 * shrunk by each trip's jitter: in the model, trips varying ±70 %, that undercount made later
 * unlimited runs 20 ms away take 4.2 s against 3.4 s).
 */
function mostTakenWith(log: Start[], mostTaken: number): number {
	let i = log.length - 1;
	while (i >= 0 && log[i].outcome !== 'accepted') i--;
	const since = (log[i]?.at ?? 0) - WINDOW_MS;
	// No more were taken than started in that window: when those are not more, none is read.
	if (i + 1 - atIndex(log, since) <= mostTaken) return mostTaken;
	let taken = 0;
	for (; i >= 0 && log[i].at > since; i--) if (log[i].outcome === 'accepted') taken++;
	return Math.max(mostTaken, taken);
}
