import { history, probeDue } from './probes';
import { WINDOW_MS, type Outcome, type Slot, type Start } from './start';

// What one API key's requests taught, kept as facts: its recent starts, what each answer was and
// said, and which 429 changed the limit. Each decision (when the next start may go, what an answer
// changes) is read from these facts and two numbers (the limit, and the most the API took in one
// window): no other state to drift from them.

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
	remaining: undefined,
	resetAt: undefined,
	taken: undefined,
	changed: undefined,
};

/** Records a start at `at` under `limit`; the oldest beyond KEEP that no window counts is dropped. */
export function addStart(log: Start[], at: number, limit: number, probe?: Slot['probe']): Start {
	// Every record of one shape (each answer's replaces it with the same fields): reading the log
	// stays as fast as reading one kind of object.
	const start: Start = { at, limit, probe, ...UNANSWERED };
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

/**
 * When the next start may go under `limit`, from what the log shows at `now` and the most starts
 * the API was seen to take in one window.
 */
export function nextSlot(log: Start[], limit: number, mostTaken: number, now: number): Slot {
	const { holdUntil, shortest } = overall(log, now);
	const counted = inWindow(log, now, shortest, limit !== Infinity);
	if (limit === Infinity) {
		// No 429 yet: FIRST_STEP above the most the API took in a window, held as the quota says.
		return { at: Math.max(holdUntil, counted.freeAt(mostTaken + FIRST_STEP)) };
	}
	// Paced: what the API says remains counts senders unseen (other n8n processes); only probes wait.
	const spaced = (log.at(-1)?.at ?? -Infinity) + WINDOW_MS / (limit * SPREAD);
	if (counted.count < limit) return { at: spaced };
	const probe = holdUntil === -Infinity ? probeDue(history(log, mostTaken), limit, now) : undefined;
	return probe ? { at: spaced, probe } : { at: Math.max(spaced, counted.freeAt(limit)) };
}

/**
 * Records what came of `start` at `now`: its record in the log is replaced by one that says it.
 * Returns the limit it teaches, and the most the API was then seen to take in one window.
 */
export function learn(
	log: Start[],
	{ limit, mostTaken }: Learned,
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
	const teach = (taught: number) => ({
		limit: taught,
		mostTaken: Math.max(mostTaken, sent.taken ?? 0),
	});
	if (outcome.kind === 'failed') return teach(limit);
	const { limit: stated, remaining, resetMs } = outcome.headers ?? {};
	const holdFor = (ms: number, left: number) =>
		record({ remaining: left, resetAt: now + Math.min(ms, MAX_HOLD_MS) });
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
		record({ taken: tookInLatestWindow(log) });
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

/** The limit the API key is paced at (Infinity: none yet), and the most the API took in a window. */
export interface Learned {
	readonly limit: number;
	readonly mostTaken: number;
}

/**
 * The starts the API may still count at `now`: how many, and when fewer than `allowed` are. Each
 * stops counting a window after it left, plus however much longer than the `shortest` its round
 * trip took (it may have arrived that much later: a busy event loop, a slow first connection),
 * capped, plus ARRIVAL_MARGIN_MS. A start refused never counts.
 */
function inWindow(log: Start[], now: number, shortest: number, paced: boolean) {
	const leavesAt = (start: Start) => {
		if (start.outcome === 'throttled') return -Infinity;
		const trip = Math.min(MAX_LATE_MS, (start.endedAt ?? now) - start.at);
		// Once paced, a start sent before any limit was known counts until a window after its answer:
		// the first of a key's requests may reach the API far later than the shortest trip shows
		// (a cold connection, a busy machine), and the window after the first 429 meets them.
		const late = paced && start.limit === Infinity ? trip : Math.max(0, trip - shortest);
		return start.at + WINDOW_MS + late + ARRIVAL_MARGIN_MS;
	};
	// Starts are logged in the order they left, each leaving the window WINDOW_MS to WINDOW_MS +
	// MAX_LATE_MS after it (plus the margin): the later ones need no reckoning.
	const surely = (start: Start) => start.at + WINDOW_MS + ARRIVAL_MARGIN_MS;
	let first = log.length;
	let count = 0;
	for (const edge = now - WINDOW_MS - MAX_LATE_MS; first > 0 && log[first - 1].at > edge; ) {
		const start = log[--first];
		if (surely(start) > now ? start.outcome !== 'throttled' : leavesAt(start) > now) count++;
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
				const at = leavesAt(log[i]);
				if (at <= now || (least.length > rank && at >= least[rank])) continue;
				least.splice(sortedIndex(least, at), 0, at);
				if (least.length > rank + 1) least.pop();
			}
			return least[rank];
		},
	};
}

function sortedIndex(sorted: number[], value: number): number {
	let i = sorted.length;
	while (i > 0 && sorted[i - 1] > value) i--;
	return i;
}

/**
 * What the whole log shows at `now`: the shortest round trip, and until when the last quota the
 * API stated (or a 429's pause) holds the starts.
 */
function overall(log: Start[], now: number) {
	let shortest = Infinity;
	let quota = -1;
	for (let i = 0; i < log.length; i++) {
		const start = log[i];
		if (start.endedAt === undefined) continue;
		if (start.outcome !== 'failed') shortest = Math.min(shortest, start.endedAt - start.at);
		if (start.remaining === undefined || start.resetAt! <= now) continue;
		if (quota < 0 || start.endedAt > log[quota].endedAt!) quota = i;
	}
	// A quota is spent once as many started after its answer's start as it said remained.
	const spent = quota >= 0 && log.length - 1 - quota >= log[quota].remaining!;
	const holdUntil = spent ? log[quota].resetAt! : -Infinity;
	return { shortest: shortest === Infinity ? 0 : shortest, holdUntil };
}

/**
 * How many starts the API surely took within one window, up to the latest start it took: counted
 * by when they left, each in a window shortened by how much its round trip differs from that
 * one's (at most a tenth), so that a round trip's jitter never adds one. A late answer counts in
 * the window it belongs to when it comes.
 */
function tookInLatestWindow(log: Start[]): number {
	let i = log.length - 1;
	while (i >= 0 && log[i].outcome !== 'accepted') i--;
	if (i < 0) return 0;
	const latest = log[i];
	const trip = latest.endedAt! - latest.at;
	let taken = 0;
	for (; i >= 0 && log[i].at > latest.at - WINDOW_MS; i--) {
		const start = log[i];
		if (start.outcome !== 'accepted') continue;
		// Each reached the API about halfway through its round trip, give or take the difference.
		const jitter = Math.min(WINDOW_MS / 10, Math.abs(start.endedAt! - start.at - trip));
		if (start.at > latest.at - WINDOW_MS + jitter) taken++;
	}
	return taken;
}
