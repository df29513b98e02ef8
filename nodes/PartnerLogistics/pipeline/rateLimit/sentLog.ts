import { history, probeDue } from './probes';
import { WINDOW_MS, type Outcome, type Slot, type Start } from './start';

// What one API key's requests taught, kept as facts: its recent starts, what each answer was and
// said, and which 429 changed the limit. Each decision (when the next start may go, what an answer
// changes) is read from these facts and two numbers (the limit, and the most the API took in one
// window): no other state to drift from them.

/** Starts kept beyond the last two windows: at 50/s eight seconds, a climb's backoff and more. */
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
/** Records a start at `at` under `limit`; the oldest beyond KEEP is dropped. */
export function addStart(log: Start[], at: number, limit: number, probe?: Slot['probe']): Start {
	const start: Start = { at, limit, probe };
	log.push(start);
	if (log.length <= KEEP) return start;
	// The last limit the API stated is kept, however long ago: no climb goes past it.
	const stated = (other: Start) => other.stated !== undefined;
	log.splice(stated(log[0]) && !log.slice(1).some(stated) ? 1 : 0, 1);
	return start;
}

/**
 * When the next start may go under `limit`, from what the log shows at `now` and the most starts
 * the API was seen to take in one window.
 */
export function nextSlot(log: Start[], limit: number, mostTaken: number, now: number): Slot {
	const { holdUntil, shortest } = overall(log, now);
	const counted = inWindow(log, now, shortest);
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

/** Records what came of `start` at `now`; the limit it teaches. */
export function learn(
	log: Start[],
	{ limit, mostTaken }: { limit: number; mostTaken: number },
	start: Start,
	outcome: Outcome,
	now: number,
): number {
	start.endedAt = now;
	start.outcome = outcome.kind;
	if (outcome.kind === 'failed') return limit;
	const { limit: stated, remaining, resetMs } = outcome.headers ?? {};
	start.stated = stated;
	const holdFor = (ms: number) => (start.resetAt = now + Math.min(ms, MAX_HOLD_MS));
	if (remaining !== undefined) {
		start.remaining = remaining;
		holdFor(resetMs ?? WINDOW_MS);
	}
	// What the API accepted in the last window, or the limit it states when no more than that (not
	// a per-hour one): read only when an answer teaches a limit.
	const accepted = () =>
		log.filter((s) => s.outcome === 'accepted' && s.endedAt! > now - WINDOW_MS);
	const said = () => (stated !== undefined && stated <= accepted().length + 1 ? stated : undefined);
	const learned = () => {
		start.changed = 'learned';
		return said() ?? Math.max(1, accepted().length);
	};
	if (outcome.kind === 'accepted') {
		start.taken = tookInLatestWindow(log);
		// Saying nothing remains, it tells the limit without a 429.
		if (limit === Infinity) return remaining === 0 ? learned() : limit;
		if (start.probe === 'climb') return limit + 1;
		return start.probe ? Math.max(limit, history(log, mostTaken, start).best) : limit;
	}
	if (start.probe) return limit; // not yet: the next try waits longer (probeDue)
	if (limit === Infinity) {
		if (accepted().length > 0 || stated !== undefined) return learned();
		// Nothing went through lately: others used the quota. It says nothing of the rate.
		start.remaining = 0;
		holdFor(outcome.waitMs ?? WINDOW_MS);
		return limit;
	}
	if (start.limit !== limit) return limit; // sent before the limit last changed
	// Refused at a limit climbs reached since it last changed: they were wrong (they found a
	// window's edge, or another sender's pause), not the limit they climbed from.
	const { climbedFrom } = history(log, mostTaken, start);
	start.changed = climbedFrom < limit ? 'undone' : 'lowered';
	const lower = climbedFrom < limit ? climbedFrom : Math.floor(limit * DECREASE);
	return Math.max(1, Math.min(limit - 1, said() ?? lower));
}

/**
 * The starts the API may still count at `now`: how many, and when fewer than `allowed` are. Each
 * stops counting a window after it left, plus however much longer than the `shortest` its round
 * trip took (it may have arrived that much later: a busy event loop, a slow first connection),
 * capped, plus ARRIVAL_MARGIN_MS. A start refused never counts.
 */
function inWindow(log: Start[], now: number, shortest: number) {
	const leavesAt = (start: Start) => {
		if (start.outcome === 'throttled') return -Infinity;
		const late = Math.min(MAX_LATE_MS, Math.max(0, (start.endedAt ?? now) - start.at - shortest));
		return start.at + WINDOW_MS + late + ARRIVAL_MARGIN_MS;
	};
	let first = log.length;
	let count = 0;
	while (first > 0 && log[first - 1].at > now - WINDOW_MS - MAX_LATE_MS) {
		if (leavesAt(log[--first]) > now) count++;
	}
	return {
		count,
		freeAt(allowed: number): number {
			if (count < allowed) return -Infinity;
			const times = new Float64Array(count);
			for (let i = first, n = 0; i < log.length; i++) {
				const at = leavesAt(log[i]);
				if (at > now) times[n++] = at;
			}
			return times.sort()[count - allowed];
		},
	};
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
