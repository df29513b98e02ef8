/** The window the API counts its limit over: the spec does not show it; one second is assumed. */
export const WINDOW_MS = 1000;
/** The most a slow answer adds to the time its start holds a place in the window. */
const MAX_EXTRA_MS = WINDOW_MS;
/** Held this much longer still: the start taking the place may reach the API a few ms sooner. */
const ARRIVAL_MARGIN_MS = 5;

interface Entry {
	at: number;
	seq: number;
	doneAt?: number;
	refused?: true;
	/** Counted in `taken`. */
	taken?: true;
	/** Sent before a limit was known. */
	readonly unpaced: boolean;
}

/**
 * One API key's starts of the last two windows, every run's (when each left and was answered, if
 * refused): what the API still counts and was seen to take. The windows read move on with pointers
 * that only go forward, so no start is looked at again for every request.
 */
export class StartLog {
	/** Starts so far. */
	seq = 0;
	/** The most starts the API was seen to take within one window (see `took`). */
	proven = 0;
	private readonly starts: Entry[] = [];
	private shortestRoundTrip = Infinity;
	/** When the latest start the API took left; the first start of the window up to it... */
	private latestTaken = -Infinity;
	private takenFrom = 1;
	/** ...and how many of that window's starts it took. */
	private taken = 0;
	/** The first start the API may still count (see `countedSince`). */
	private countedFrom = 1;

	/** Records a start at `at` (`unpaced`: before a limit was known); its number. */
	add(at: number, unpaced: boolean): number {
		const seq = ++this.seq;
		this.starts.push({ at, seq, unpaced });
		while (this.starts[0].at <= at - WINDOW_MS - MAX_EXTRA_MS) this.starts.shift();
		return seq;
	}

	/** The start numbered `seq`, which left at `at`, was answered at `now`; `refused`: with 429. */
	settle(seq: number, at: number, now: number, refused: boolean): void {
		const entry = this.entry(seq);
		if (entry) {
			entry.doneAt = now;
			if (refused) entry.refused = true; // the API did not count it
		}
		this.shortestRoundTrip = Math.min(this.shortestRoundTrip, now - at);
	}

	/**
	 * The API took start `seq` (left at `at`): it takes at least as many as it took in the window up
	 * to the latest start it took (`proven`). Only answered ones count, a late one within that
	 * window when it comes, so a round trip's jitter neither adds nor loses any.
	 */
	took(seq: number, at: number): void {
		if (at > this.latestTaken) {
			this.latestTaken = at;
			const kept = this.starts[0]?.seq ?? 1;
			if (this.takenFrom < kept) {
				// Answers over a second late: the window's first starts are gone, count it afresh.
				this.takenFrom = kept;
				this.taken = this.starts.filter((entry) => entry.taken).length;
			}
			for (
				let entry = this.entry(this.takenFrom);
				entry && entry.at <= this.latestTaken - WINDOW_MS;
				entry = this.entry(++this.takenFrom)
			) {
				if (entry.taken) this.taken--;
			}
		}
		const entry = this.entry(seq);
		if (entry && at > this.latestTaken - WINDOW_MS) {
			entry.taken = true;
			this.proven = Math.max(this.proven, ++this.taken);
		}
	}

	/**
	 * How many starts the API may still count at `now` (refused ones too, for speed: before a limit
	 * is known a 429 is rare), and when the first of them stops counting.
	 */
	countedSince(now: number): { counted: number; firstLeavesAt: number } {
		this.countedFrom = Math.max(this.countedFrom, this.starts[0]?.seq ?? 1);
		let first = this.entry(this.countedFrom);
		while (first && this.leavesAt(first, now) <= now) first = this.entry(++this.countedFrom);
		return {
			counted: this.seq - this.countedFrom + 1,
			firstLeavesAt: first ? this.leavesAt(first, now) : -Infinity,
		};
	}

	/** When each start the API still counts at `now` stops counting, in no order (once paced). */
	leaving(now: number): number[] {
		const times: number[] = [];
		for (const entry of this.starts) {
			const at = this.leavesAt(entry, now, entry.unpaced);
			if (at > now) times.push(at);
		}
		return times;
	}

	/** The most of the starts kept that the API took within one window, as far as answers tell. */
	tookInOneWindow(): number {
		// Each one reached the API about halfway through its round trip.
		const took = this.starts
			.filter((entry) => entry.doneAt !== undefined && !entry.refused)
			.map((entry) => (entry.at + entry.doneAt!) / 2)
			.sort((a, b) => a - b);
		let most = 0;
		for (let first = 0, last = 0; last < took.length; last++) {
			while (took[first] <= took[last] - WINDOW_MS) first++;
			most = Math.max(most, last - first + 1);
		}
		return most;
	}

	/**
	 * When `entry` stops counting: a window after it left, plus however much longer than the
	 * shortest its round trip took (it may have arrived that much later: a busy event loop, a slow
	 * first connection), capped, plus ARRIVAL_MARGIN_MS (the next trip may be a little quicker, and
	 * clocks count whole ms). One refused never counts. `wholeTrip`: the first of a key's requests
	 * (cold connections, a busy machine) may reach the API far later than the shortest trip shows,
	 * so once paced they count until a window after their answer, and the window after the first
	 * 429 meets them.
	 */
	private leavesAt(entry: Entry, now: number, wholeTrip = false): number {
		if (entry.refused) return -Infinity;
		const shortest =
			wholeTrip || !Number.isFinite(this.shortestRoundTrip) ? 0 : this.shortestRoundTrip;
		const late = Math.min(MAX_EXTRA_MS, Math.max(0, (entry.doneAt ?? now) - entry.at - shortest));
		return entry.at + WINDOW_MS + late + ARRIVAL_MARGIN_MS;
	}

	private entry(seq: number): Entry | undefined {
		const entry = this.starts[seq - (this.starts[0]?.seq ?? 0)];
		return entry?.seq === seq ? entry : undefined;
	}
}
