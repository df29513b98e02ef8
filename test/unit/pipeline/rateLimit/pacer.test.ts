import { rateHeadersOf } from '../../../../nodes/PartnerLogistics/pipeline/rateLimit';
import {
	ApiKeyPacer,
	RunPacer,
	type Clock,
	type PacerSettings,
} from '../../../../nodes/PartnerLogistics/pipeline/rateLimit/pacer';
import type { Start } from '../../../../nodes/PartnerLogistics/pipeline/rateLimit/start';
import { PacedApi, rateLimitedBatch } from './pacing';

/** A clock that only moves when the pacer waits: start times are exact. */
function fakeClock(): Clock & { time: number } {
	const clock = {
		time: 0,
		now: () => clock.time,
		wait: async (ms: number) => {
			clock.time += ms;
		},
	};
	return clock;
}

/** A clock that stands still: no wait ever ends, time moves only when a test sets it. */
function heldClock(): Clock & { time: number } {
	const clock = {
		time: 0,
		now: () => clock.time,
		wait: async () => await new Promise<void>(() => {}),
	};
	return clock;
}

/** An API key nothing was learned of yet, and a run on it. */
function apiKeyAndRun(settings: Partial<PacerSettings> = {}, clock = fakeClock()) {
	const apiKey = new ApiKeyPacer(clock);
	const run = (more: Partial<PacerSettings> = {}) =>
		new RunPacer(apiKey, { concurrency: 100, maxPerSecond: 0, ...settings, ...more }, clock);
	return { clock, apiKey, pacer: run(), run };
}

/** An API key nothing was learned of yet, and a run on it that `controller.abort()` cancels. */
function cancellableRun(clock: Clock & { time: number } = heldClock()) {
	const apiKey = new ApiKeyPacer(clock);
	const controller = new AbortController();
	const settings = { concurrency: 100, maxPerSecond: 0 };
	const pacer = new RunPacer(apiKey, settings, clock, controller.signal);
	return { clock, apiKey, controller, settings, pacer };
}

/** Starts `count` requests one after another, each answered at once (accepted). */
async function startMany(pacer: RunPacer, count: number) {
	const starts: number[] = [];
	for (let i = 0; i < count; i++) {
		const start = (await pacer.nextStart())!;
		starts.push(start.at);
		pacer.finished(start, { kind: 'accepted' });
	}
	return starts;
}

/** Starts requests one after another, each accepted, until the pacer gives a probe; the probe. */
async function acceptUntilProbe(pacer: RunPacer): Promise<Start> {
	for (;;) {
		const start = (await pacer.nextStart())!;
		if (start.probe) return start;
		pacer.finished(start, { kind: 'accepted' });
	}
}

/** Lets every settled promise run its continuation. */
const settle = async () => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** Asks for `count` starts at once; the ones given by now (the others go on waiting). */
async function startsNow(pacer: RunPacer, count: number): Promise<Start[]> {
	const given: Start[] = [];
	for (let i = 0; i < count; i++)
		void pacer.nextStart().then((start) => start && given.push(start));
	await settle();
	return given;
}

test('Max Requests per Second spaces the starts evenly', async () => {
	const { pacer } = apiKeyAndRun({ concurrency: 10, maxPerSecond: 4 });
	expect(await startMany(pacer, 5)).toEqual([0, 250, 500, 750, 1000]);
});

test("n8n's batching: a batch, then the next one an interval later", async () => {
	const { pacer } = apiKeyAndRun({ concurrency: 10, batch: { size: 2, intervalMs: 1000 } });
	expect(await startMany(pacer, 5)).toEqual([0, 0, 1000, 1000, 2000]);
});

test('a timer that fires late does not slow the starts after it', async () => {
	const clock = fakeClock();
	const late = {
		...clock,
		now: () => clock.time,
		wait: async (ms: number) => void (clock.time += ms + 3),
	};
	const { pacer } = apiKeyAndRun(
		{ concurrency: 10, maxPerSecond: 50 },
		late as unknown as typeof clock,
	);
	const starts = await startMany(pacer, 51);
	// 50 intervals of 20 ms: late timers (3 ms each) are caught up on, not added up.
	expect(starts[50]).toBeLessThanOrEqual(1000 + 3);
});

describe('before the API has refused anything', () => {
	test('the starts it still counts stay within 5 of the most it took in one window, every run on the API key together', async () => {
		const clock = heldClock();
		const { run } = apiKeyAndRun({}, clock);
		const [one, two] = [run(), run()];
		const [ofOne, ofTwo]: Start[][] = [[], []];
		for (let i = 0; i < 10; i++) {
			void one.nextStart().then((start) => start && ofOne.push(start));
			void two.nextStart().then((start) => start && ofTwo.push(start));
		}
		await settle();
		const given = () => [...ofOne, ...ofTwo];
		expect([ofOne.length, ofTwo.length]).toEqual([3, 2]); // 5, whichever run asks
		clock.time = 30;
		one.finished(ofOne[0], { kind: 'accepted' }); // took 1 in this window: 6 may count
		await settle();
		expect(given()).toHaveLength(6);
		for (const start of given().slice(1)) one.finished(start, { kind: 'accepted' }); // took 6: 11 may count
		await settle();
		expect(given()).toHaveLength(11);
	});

	test('light use (a poll now and then) teaches what it sent: a later run starts 5 above it', async () => {
		const { clock, run } = apiKeyAndRun();
		for (let poll = 0; poll < 10; poll++) {
			clock.time = poll * 60_000;
			await startMany(run(), 3);
		}
		clock.time += 60_000;
		const now = clock.time;
		const starts = await startsNow(run(), 20);
		expect(starts.filter((start) => start.at === now)).toHaveLength(8);
	});

	test('once the API took a whole window at Concurrency without a 429, later runs start at Concurrency', async () => {
		const { clock, apiKey } = apiKeyAndRun();
		const first = new RunPacer(apiKey, { concurrency: 40, maxPerSecond: 0 }, clock);
		for (let i = 0; i < 40; i++) {
			clock.time += 10;
			const [start] = await startsNow(first, 1);
			first.finished(start, { kind: 'accepted' });
		}
		clock.time += 5000;
		expect(
			await startsNow(new RunPacer(apiKey, { concurrency: 40, maxPerSecond: 0 }, clock), 40),
		).toHaveLength(40);
	});

	test.each(
		[1, 20, 100, 200].flatMap((latencyMs) => [10, 50, 200].map((limit) => [latencyMs, limit])),
	)(
		'meeting an unknown limit %d ms away (%d/s), at most 5 requests are refused',
		async (latencyMs, limit) => {
			const api = new PacedApi({ limit: () => limit, latencyMs });
			const [run] = await api.runs([{ items: 300, concurrency: 50 }]);
			expect(run.refused).toBeLessThanOrEqual(5);
		},
	);
});

test('a 429 teaches the limit: what the API accepted in the last second, never more per second after', async () => {
	const { clock, pacer } = apiKeyAndRun();
	for (let i = 0; i < 30; i++) {
		const start = (await pacer.nextStart())!;
		clock.time += 10; // 30 accepted within 300 ms
		pacer.finished(start, { kind: 'accepted' });
	}
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' });
	// The API goes on taking 30 per rolling second and says nothing of its limit.
	const accepted: number[] = [];
	let refusals = 0;
	const starts: number[] = [];
	for (let i = 0; i < 60; i++) {
		const start = (await pacer.nextStart())!;
		starts.push(start.at);
		if (accepted.filter((other) => other > start.at - 1000).length < 30) {
			accepted.push(start.at);
			pacer.finished(start, { kind: 'accepted' });
		} else {
			refusals++;
			pacer.finished(start, { kind: 'throttled' });
		}
	}
	// Only a probe (one start over the limit, now and then) meets a 429.
	expect(refusals).toBeLessThanOrEqual(1);
	for (const at of starts) {
		expect(starts.filter((other) => other > at - 1000 && other <= at).length).toBeLessThanOrEqual(
			31,
		);
	}
	// Sixty starts at 30 per second take two windows, not three.
	expect(starts[59] - starts[0]).toBeLessThan(2100);
});

test('a 429 before any request was accepted pauses every start as asked, and teaches no limit', async () => {
	const { apiKey, pacer } = apiKeyAndRun();
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', waitMs: 1000 }); // others used the key's quota
	expect((await pacer.nextStart())!.at).toBe(1000);
	expect(apiKey.rate).toBe(Infinity);
});

test('a limit learned while others used the API key climbs back to the one the API states', async () => {
	const { apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 10; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', headers: { limit: 40 } }); // 40 stated, 10 ours
	expect(apiKey.rate).toBe(10);
	await startMany(pacer, 60); // the others stopped: every start is accepted
	expect(apiKey.rate).toBe(40);
});

test('a limit the API states is believed when it is no more than it accepted', async () => {
	const { apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 20; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', headers: { limit: 12 } });
	expect(apiKey.rate).toBe(12);

	const other = apiKeyAndRun();
	for (let i = 0; i < 20; i++)
		other.pacer.finished((await other.pacer.nextStart())!, { kind: 'accepted' });
	// e.g. per hour: not a per-second limit
	other.pacer.finished((await other.pacer.nextStart())!, {
		kind: 'throttled',
		headers: { limit: 3600 },
	});
	expect(other.apiKey.rate).toBe(20);
});

test('a 429 while paced lowers the limit; a probe brings it back once the API accepts more', async () => {
	const { clock, apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 20; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' });
	expect(apiKey.rate).toBe(20);
	clock.time += 2000;
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' }); // the API now takes fewer
	expect(apiKey.rate).toBe(14);
	// A second later one start more than 14 in a window is tried; accepted, the limit is back.
	const starts = await startMany(pacer, 40);
	expect(apiKey.rate).toBe(20);
	const perWindow = (at: number) => starts.filter((s) => s > at - 1000 && s <= at).length;
	expect(Math.max(...starts.map(perWindow))).toBe(20);
});

/** Starts one after another, each accepted but probes, which `refuse` answers; the probes' times. */
async function probesRefused(pacer: RunPacer, count: number): Promise<number[]> {
	const probes: number[] = [];
	while (probes.length < count) {
		const start = (await pacer.nextStart())!;
		if (start.probe) probes.push(start.at);
		pacer.finished(start, { kind: start.probe ? 'throttled' : 'accepted' });
	}
	return probes;
}

const gaps = (times: number[]) => times.slice(1).map((at, i) => at - times[i]);

test('below the limit a 429 lowered, a return is tried a window after, each refused one 1.5 times later, at most 2 s', async () => {
	const { clock, apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 20; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' });
	clock.time += 2000;
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' });
	const droppedAt = clock.time;
	expect(apiKey.rate).toBe(14);
	const probes = await probesRefused(pacer, 5);
	expect(probes[0] - droppedAt).toBeGreaterThanOrEqual(1000);
	// Each once the wait is over and the window is full again (within a window).
	const [first, ...later] = gaps(probes);
	expect(first).toBeGreaterThanOrEqual(1500);
	for (const gap of later) expect(gap).toBeGreaterThanOrEqual(2000);
	for (const gap of [first, ...later]) expect(gap).toBeLessThan(2000 + 1000);
	// Another 429 lowers further; a return still aims at the limit before the first.
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' });
	expect(apiKey.rate).toBe(9);
	const back = await acceptUntilProbe(pacer);
	pacer.finished(back, { kind: 'accepted' });
	expect(apiKey.rate).toBe(20);
});

test('at the limit, one more is tried 2 s after it was learned, each refused one about twice as late, at most 16 s', async () => {
	const { clock, apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 10; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' }); // nothing stated: 10
	const learnedAt = clock.time;
	const probes = await probesRefused(pacer, 6);
	expect(apiKey.rate).toBe(10);
	expect(probes[0] - learnedAt).toBeGreaterThanOrEqual(2000);
	// Twice as late each as far as the log goes back (400 starts: 40 s at 10/s), within a window.
	const [second, third, ...later] = gaps(probes);
	expect(second).toBeGreaterThanOrEqual(4000);
	expect(third).toBeGreaterThanOrEqual(8000);
	for (const gap of later) expect(gap).toBeGreaterThanOrEqual(8000);
	for (const gap of gaps(probes)) expect(gap).toBeLessThan(16_000 + 1000);
});

test('no start beyond a limit the API states: at it, nothing is refused', async () => {
	const { apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 10; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', headers: { limit: 10 } });
	const starts = [];
	for (let i = 0; i < 300; i++) starts.push((await pacer.nextStart())!);
	expect(starts.filter((start) => start.probe)).toEqual([]);
	expect(apiKey.rate).toBe(10);
});

/** An API key that learned a limit of 10 from a 429 that stated none, and a run on it. */
async function learnedTen() {
	const setup = apiKeyAndRun();
	const { pacer } = setup;
	for (let i = 0; i < 10; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled' });
	expect(setup.apiKey.rate).toBe(10);
	return setup;
}

/** Refuses the starts to come, probes and all, up to the first within the limit (refused too). */
async function refuseThroughPaced(pacer: RunPacer) {
	let next = (await pacer.nextStart())!;
	for (; next.probe; next = (await pacer.nextStart())!) pacer.finished(next, { kind: 'throttled' });
	pacer.finished(next, { kind: 'throttled' });
}

test("paced, the starts within a window come at most at twice the limit's average pace", async () => {
	const { pacer } = await learnedTen();
	const starts = await startMany(pacer, 15); // within 2 s: no climb yet
	for (let i = 1; i < starts.length; i++)
		expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(50);
});

test('one probe at a time: while one is unanswered, the starts stay within the limit', async () => {
	const { clock, pacer } = await learnedTen();
	clock.time += 3000;
	const probe = await acceptUntilProbe(pacer);
	const meanwhile = [];
	for (let i = 0; i < 15; i++) {
		const start = (await pacer.nextStart())!;
		meanwhile.push(start);
		pacer.finished(start, { kind: 'accepted' });
	}
	expect(meanwhile.filter((start) => start.probe)).toEqual([]);
	pacer.finished(probe, { kind: 'throttled' });
});

test('while climbs go through, each goes one higher as soon as the window is full again', async () => {
	const { apiKey, clock, pacer } = await learnedTen();
	clock.time += 3000;
	const probes = [];
	for (let climb = 1; climb <= 3; climb++) {
		const probe = await acceptUntilProbe(pacer);
		probes.push(probe.at);
		pacer.finished(probe, { kind: 'accepted' });
		expect(apiKey.rate).toBe(10 + climb);
	}
	for (const gap of gaps(probes)) expect(gap).toBeLessThanOrEqual(1000);
});

test('a 429 right after several climbs undoes them all, back to the limit they started from', async () => {
	const { apiKey, clock, pacer } = await learnedTen();
	clock.time += 3000;
	for (let climb = 1; climb <= 3; climb++)
		pacer.finished(await acceptUntilProbe(pacer), { kind: 'accepted' });
	expect(apiKey.rate).toBe(13);
	await refuseThroughPaced(pacer);
	expect(apiKey.rate).toBe(10);
});

test('a 429 while paced lowers the limit to the one it states, when no more than one above what the API accepted', async () => {
	for (const [stated, lowered] of [
		[5, 5],
		[3600, 7], // e.g. per hour: 70 % of 10 instead
	]) {
		const { apiKey, pacer } = await learnedTen();
		await startMany(pacer, 8); // accepted within the next window: 8 at 10/s, no climb due yet
		pacer.finished((await pacer.nextStart())!, { kind: 'throttled', headers: { limit: stated } });
		expect(apiKey.rate).toBe(lowered);
	}
});

test('below the limit a 429 lowered to the one it stated, a return to the old limit is still tried', async () => {
	const { apiKey, pacer } = await learnedTen();
	await startMany(pacer, 8);
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', headers: { limit: 5 } });
	expect(apiKey.rate).toBe(5);
	// Three seconds at 5/s, each accepted and still stating 5: a return goes within them.
	for (let i = 0; i < 15; i++)
		pacer.finished((await pacer.nextStart())!, { kind: 'accepted', headers: { limit: 5 } });
	expect(apiKey.rate).toBe(10);
});

test('what the API says remains holds probes until its reset, not the starts within the limit', async () => {
	const { clock, pacer } = await learnedTen();
	clock.time += 3000; // a climb would be due
	const startedAt = clock.time;
	const starts = [];
	for (let i = 0; i < 20; i++) {
		const start = (await pacer.nextStart())!;
		starts.push(start);
		pacer.finished(start, { kind: 'accepted', headers: { remaining: 0, resetMs: 5000 } });
	}
	expect(starts.filter((start) => start.probe)).toEqual([]);
	expect(starts[19].at - startedAt).toBeLessThan(5000); // paced at 10/s, not held
});

test('a 429 for a request sent after the limit last changed lowers it, however slow round trips once were', async () => {
	const { clock, apiKey, pacer } = apiKeyAndRun();
	const slow = (await pacer.nextStart())!;
	clock.time += 2000; // one answer took 2 s
	pacer.finished(slow, { kind: 'accepted' });
	for (let i = 0; i < 19; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	const learnedWith = (await pacer.nextStart())!;
	pacer.finished(learnedWith, { kind: 'throttled' });
	expect(apiKey.rate).toBe(20);
	// The next start, a window later, is refused 10 ms after it left: the API takes fewer now.
	const sent = (await pacer.nextStart())!;
	clock.time += 10;
	pacer.finished(sent, { kind: 'throttled' });
	expect(apiKey.rate).toBe(14);
	// A refusal of a request sent before that change teaches nothing more.
	pacer.finished(learnedWith, { kind: 'throttled' });
	expect(apiKey.rate).toBe(14);
});

test('what the API says remains of its quota (X-RateLimit-Remaining) holds the starts until its reset', async () => {
	const { pacer } = apiKeyAndRun();
	const first = (await pacer.nextStart())!;
	pacer.finished(first, { kind: 'accepted', headers: { limit: 10, remaining: 3, resetMs: 800 } });
	const next = [];
	for (let i = 0; i < 4; i++) next.push((await pacer.nextStart())!.at);
	expect(next).toEqual([0, 0, 0, 800]); // three remained; the fourth waits for the reset
});

test('an answer saying nothing remains (X-RateLimit-Remaining: 0) teaches the limit without a 429', async () => {
	const { apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 9; i++)
		pacer.finished((await pacer.nextStart())!, {
			kind: 'accepted',
			headers: { limit: 10, remaining: 9 - i },
		});
	pacer.finished((await pacer.nextStart())!, {
		kind: 'accepted',
		headers: { limit: 10, remaining: 0 },
	});
	expect(apiKey.rate).toBe(10);
});

test('a quota is spent by the starts after the answer that said it, not by those before', async () => {
	const { pacer } = apiKeyAndRun();
	const [first, second, third] = [
		(await pacer.nextStart())!,
		(await pacer.nextStart())!,
		(await pacer.nextStart())!,
	];
	pacer.finished(second, { kind: 'accepted', headers: { remaining: 2, resetMs: 700 } });
	pacer.finished(first, { kind: 'accepted' });
	pacer.finished(third, { kind: 'accepted' });
	// One (the third) started after the answer's own: one more may go, then the reset.
	expect([(await pacer.nextStart())!.at, (await pacer.nextStart())!.at]).toEqual([0, 700]);
});

test('a quota spent holds the starts of every run on the API key, and lets them all go at its reset', async () => {
	const { run } = apiKeyAndRun();
	const [one, two] = [run(), run()];
	one.finished((await one.nextStart())!, {
		kind: 'accepted',
		headers: { remaining: 1, resetMs: 500 },
	});
	expect((await two.nextStart())!.at).toBe(0);
	expect((await one.nextStart())!.at).toBe(500);
	expect((await two.nextStart())!.at).toBe(500);
});

test('a request that ends without an answer teaches no limit, and holds no place once ended', async () => {
	const { clock, apiKey, pacer } = apiKeyAndRun();
	const start = (await pacer.nextStart())!;
	expect(apiKey.idle).toBe(false); // in flight
	clock.time += 30_000; // a timeout
	pacer.finished(start, { kind: 'failed' });
	expect(apiKey.rate).toBe(Infinity);
	expect(apiKey.idle).toBe(true);
	expect((await pacer.nextStart())!.at).toBe(30_000);
});

test('idle (the owner may forget the API key) only while no run waits and nothing is in flight', async () => {
	const { apiKey, controller, pacer } = cancellableRun();
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', waitMs: 60_000 });
	expect(apiKey.idle).toBe(true);
	void pacer.nextStart(); // waits for the pause to end
	await settle();
	expect(apiKey.idle).toBe(false);
	controller.abort();
	await settle();
	expect(apiKey.idle).toBe(true);
});

test('before a limit is known, starts that left the window free their places, however long the API key has sent', async () => {
	const { clock, pacer } = apiKeyAndRun();
	const late: number[] = [];
	for (let i = 0; i < 2000; i++) {
		clock.time = i * 10; // 100 a second for 20 s, each answered at once
		const start = (await pacer.nextStart())!;
		if (start.at !== i * 10) late.push(i);
		pacer.finished(start, { kind: 'accepted' });
	}
	expect(late).toEqual([]);
});

test('a limit the API stated long ago, many starts back, still holds: no climb past it', async () => {
	const { clock, apiKey, pacer } = apiKeyAndRun();
	for (let i = 0; i < 10; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
	pacer.finished((await pacer.nextStart())!, { kind: 'throttled', headers: { limit: 10 } });
	expect(apiKey.rate).toBe(10);
	clock.time += 60_000;
	const starts: Start[] = [];
	for (let i = 0; i < 1200; i++) {
		const start = (await pacer.nextStart())!; // two minutes at the limit, far past the 400 kept
		starts.push(start);
		pacer.finished(start, { kind: 'accepted' });
	}
	expect(starts.filter((start) => start.probe)).toEqual([]);
	expect(apiKey.rate).toBe(10);
});

test("a cancelled run's place goes to the next run on the API key at once", async () => {
	const { clock, apiKey, controller, settings, pacer: cancelled } = cancellableRun();
	apiKey.finished((await cancelled.nextStart())!, { kind: 'throttled', waitMs: 1000 });
	const waiting = cancelled.nextStart();
	controller.abort();
	expect(await waiting).toBeUndefined();
	clock.time = 1000;
	const next = new RunPacer(apiKey, settings, clock);
	expect((await startsNow(next, 1)).map((start) => start.at)).toEqual([1000]);
});

test('rate headers: X-RateLimit-* or the IETF draft RateLimit-*, a reset in seconds or as an epoch second', () => {
	const now = 1_700_000_000_000;
	expect(
		rateHeadersOf(
			{ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' },
			now,
		),
	).toEqual({ limit: 50, remaining: 0, resetMs: 1000 });
	expect(rateHeadersOf({ 'ratelimit-limit': '10', 'ratelimit-reset': '1700000003' }, now)).toEqual({
		limit: 10,
		remaining: undefined,
		resetMs: 3000,
	});
	// Nothing said, or nothing readable, is nothing known.
	expect(rateHeadersOf({}, now)).toEqual({});
	expect(
		rateHeadersOf({
			'x-ratelimit-limit': '0',
			'x-ratelimit-remaining': ' ',
			'x-ratelimit-reset': 'soon',
		}),
	).toEqual({ limit: undefined, remaining: undefined, resetMs: undefined });
});

describe('one API key, several runs at once', () => {
	test('their starts together never exceed the limit, and the run served longest ago goes first', async () => {
		const { clock, apiKey, run } = apiKeyAndRun();
		const batch = run();
		for (let i = 0; i < 10; i++) batch.finished((await batch.nextStart())!, { kind: 'accepted' });
		batch.finished((await batch.nextStart())!, { kind: 'throttled', headers: { limit: 10 } });
		expect(apiKey.rate).toBe(10);
		const other = run();
		const starts: Array<[string, number]> = [];
		const ask = async (name: string, pacer: RunPacer, count: number) => {
			for (let i = 0; i < count; i++) {
				const start = (await pacer.nextStart())!;
				starts.push([name, start.at]);
				pacer.finished(start, { kind: 'accepted' });
			}
		};
		// The fake clock moves on every wait: run both at once on it.
		await Promise.all([ask('batch', batch, 20), ask('other', other, 20)]);
		const at = starts.map(([, time]) => time);
		for (const time of at) {
			expect(at.filter((o) => o > time - 1000 && o <= time).length).toBeLessThanOrEqual(10);
		}
		// Taking turns: in any ten starts in a row, each run has about half.
		const names = starts.map(([name]) => name);
		for (let i = 0; i + 10 <= names.length / 2; i++) {
			expect(
				names.slice(i, i + 10).filter((name) => name === 'other').length,
			).toBeGreaterThanOrEqual(4);
		}
		expect(clock.time).toBeGreaterThanOrEqual(3000);
	});

	test('a run that asks while another waits for the window gets the next start', async () => {
		const api = new PacedApi({ limit: () => 20, latencyMs: 2 });
		await api.runs([{ items: 40 }]); // the API key learns 20/s
		const started = api.clock.now();
		let single: number | undefined;
		const both = api.runs([{ items: 200 }]);
		void (async () => {
			await api.clock.wait(3000); // the batch fills every window meanwhile
			const pacer = new RunPacer(api.apiKey, { concurrency: 1, maxPerSecond: 0 }, api.clock);
			const asked = api.clock.now();
			const start = (await pacer.nextStart())!;
			single = start.at - asked;
			pacer.finished(start, { kind: 'accepted' });
		})();
		await both;
		expect(api.clock.now() - started).toBeGreaterThan(9000);
		// The slot freed next goes to it: at 20/s, one frees every 50 ms on average.
		expect(single).toBeLessThanOrEqual(100);
	});

	test('withdrawn when its execution is cancelled: the wait ends with no start', async () => {
		const { apiKey, controller, pacer } = cancellableRun(fakeClock());
		apiKey.finished((await pacer.nextStart())!, { kind: 'throttled', waitMs: 60_000 });
		const waiting = pacer.nextStart();
		controller.abort();
		expect(await waiting).toBeUndefined();
		expect(await pacer.nextStart()).toBeUndefined();
	});

	test("an agent's tool call waits no longer than its patience, and knows until when", async () => {
		const { apiKey, run } = apiKeyAndRun();
		const batch = run();
		apiKey.finished((await batch.nextStart())!, { kind: 'throttled', waitMs: 30_000 });
		const tool = run({ patienceMs: 5000 });
		expect(await tool.nextStart()).toBeUndefined();
		expect(tool.blockedUntil).toBe(30_000);
	});
});

describe('300 requests against an API limiting them per rolling second, Concurrency 20', () => {
	// A virtual-time model of the pipeline against the sandbox's limiter (bench/payments.ts
	// measures the same in real n8n): the time against the floor the limit allows, and how many
	// requests the API refused.
	// Name, limit over time, floor, and the most refused on a first run: 5 meeting the limit, and
	// when it is halved one more as it drops and one return tried while it lasts.
	const scenarios: Array<[string, (t: number) => number, number, number]> = [
		['10/s', () => 10, 30_000, 5],
		['50/s', () => 50, 6000, 5],
		['200/s', () => 200, 1500, 5],
		['50/s, halved from 2 s to 4 s', (t) => (t >= 2000 && t < 4000 ? 25 : 50), 7000, 7],
	];

	test.each(scenarios)(
		'%s, nothing learned yet: within 1.05× the floor, at most 5 refused meeting the limit and 1 for each change of it',
		async (_name, limit, floorMs, mostRefused) => {
			const run = await rateLimitedBatch({ items: 300, concurrency: 20, limit, latencyMs: 2 });
			expect(run.refused).toBeLessThanOrEqual(mostRefused);
			expect(run.timeMs / floorMs).toBeLessThanOrEqual(1.05);
		},
	);

	test.each(scenarios)(
		'%s, a later run on the API key (Concurrency 50, 20 ms away): nothing refused but probes, within 1.10× the floor',
		async (_name, limit, floorMs) => {
			const api = new PacedApi({ limit: () => limit(0), latencyMs: 20 });
			await api.runs([{ items: 300, concurrency: 50 }]);
			await api.idle(3000);
			api.reconfigure({ limit, latencyMs: 20 });
			const [run] = await api.runs([{ items: 300, concurrency: 50 }]);
			expect(run.refused / run.requests).toBeLessThanOrEqual(0.02);
			expect(run.timeMs / floorMs).toBeLessThanOrEqual(1.1);
		},
	);

	test('without a stated limit it still learns it, from what the API accepted', async () => {
		const run = await rateLimitedBatch({
			items: 300,
			concurrency: 20,
			limit: () => 50,
			latencyMs: 2,
			headers: 'none',
		});
		expect(run.refused / run.requests).toBeLessThanOrEqual(0.02);
		expect(run.timeMs / 6000).toBeLessThanOrEqual(1.05);
	});

	test('a limit above the 400 starts kept at least (500/s, 2 ms away) is learned whole', async () => {
		// The window's starts are all kept (with 400 kept at most, this first run was refused 48 times).
		const api = new PacedApi({ limit: () => 500, latencyMs: 2 });
		const [first] = await api.runs([{ items: 600, concurrency: 50 }]);
		expect(first.refused).toBeLessThanOrEqual(5);
		const [later] = await api.runs([{ items: 600, concurrency: 50 }]);
		expect(later.refused / later.requests).toBeLessThanOrEqual(0.02);
		expect(later.timeMs / 1200).toBeLessThanOrEqual(1.1);
	});

	test('two and three runs at once share the limit: within 1.10× the floor, at most 2 % refused', async () => {
		for (const runs of [2, 3]) {
			const api = new PacedApi({ limit: () => 50, latencyMs: 20 });
			const results = await api.runs(Array.from({ length: runs }, () => ({ items: 300 })));
			const requests = results.reduce((sum, r) => sum + r.requests, 0);
			const refused = results.reduce((sum, r) => sum + r.refused, 0);
			expect(refused / requests).toBeLessThanOrEqual(0.02);
			expect(
				Math.max(...results.map((r) => r.timeMs)) / ((runs * 300 * 1000) / 50),
			).toBeLessThanOrEqual(1.1);
		}
	});
});

describe('two queue-mode workers on one API key, each its own pacer (300 payments each, 50/s, 20 ms away)', () => {
	test.each(['on429', 'always', 'none'] as const)(
		'the API saying its limit %s: within 1.10× the floor, at most 2.5 %% refused',
		async (headers) => {
			const api = new PacedApi({ limit: () => 50, latencyMs: 20, headers });
			const results = await api.runs([
				{ items: 300, concurrency: 50, process: 1 },
				{ items: 300, concurrency: 50, process: 2 },
			]);
			const refused = results.reduce((sum, r) => sum + r.refused, 0);
			const requests = results.reduce((sum, r) => sum + r.requests, 0);
			expect(Math.max(...results.map((r) => r.timeMs)) / 12_040).toBeLessThanOrEqual(1.1);
			expect(refused / requests).toBeLessThanOrEqual(0.025);
		},
	);
});

describe('a learned limit is a belief, not a ceiling', () => {
	test.each([
		['no rate headers', 'none', 4000],
		['what remains said on every answer', 'always', 4000],
	] as const)(
		'learned while another sender used the apiKey, it climbs back once the sender stops (%s)',
		async (_name, headers, withinMs) => {
			const api = new PacedApi({ limit: () => 50, latencyMs: 10, headers });
			api.others(25, 0, 5000);
			await api.runs([{ items: 600 }]);
			expect(api.peakRate(0, 5000)).toBeLessThanOrEqual(50);
			// From 5 s on the API key is ours: the rate is back at 50 within `withinMs`.
			const back = api.accepted.find((at) => at > 5000 && api.peakRate(at, at + 1000) >= 45);
			expect(back).toBeDefined();
			expect(back! - 5000).toBeLessThanOrEqual(withinMs);
		},
	);

	test('halved and restored, the rate is back within 2 s of the restore', async () => {
		const api = new PacedApi({ limit: (t) => (t >= 2000 && t < 6000 ? 25 : 50), latencyMs: 20 });
		await api.runs([{ items: 500, concurrency: 50 }]);
		const back = api.accepted.find((at) => at >= 6000 && api.peakRate(at, at + 1000) >= 45);
		expect(back! - 6000).toBeLessThanOrEqual(2000);
	});
});

describe('a limit halved under a run (bench/payments.ts: 25/s from 2 s to 4 s, Concurrency 50)', () => {
	// Every start that left before the first 429 came back met the lower limit: how many is the
	// rate times a round trip (at 100 ms away, 16 to 20 here, on main's pacer too). Once it came
	// back, only a return to the old limit may be refused, one at a time.
	const halved = (t: number) => (t >= 2000 && t < 4000 ? 25 : 50);

	test.each([
		[0, 7, 2],
		[20, 10, 5],
		[100, 17, 18],
	])(
		'%d ms away: refused only what left before the node heard of it, and a return; at most %d on a first run, %d on a later one',
		async (latencyMs, mostFirst, mostLater) => {
			const api = new PacedApi({ limit: halved, latencyMs });
			for (const most of [mostFirst, mostLater]) {
				if (most === mostLater) {
					await api.idle(3000);
					api.reconfigure({ limit: halved, latencyMs });
				}
				const from = api.clock.now();
				const before = api.refusals.length;
				const [run] = await api.runs([{ items: 300, concurrency: 50 }]);
				const dropped = api.refusals.slice(before).filter((r) => r.heardAt >= from + 2000);
				const heard = Math.min(...dropped.map((r) => r.heardAt));
				const afterHeard = dropped.filter((r) => r.start.at >= heard);
				expect(afterHeard.every((r) => r.start.probe === 'return')).toBe(true);
				expect(afterHeard.length).toBeLessThanOrEqual(2);
				expect(run.refused).toBeLessThanOrEqual(most);
			}
		},
	);
});

describe('an API that says nothing of its limit (the spec shows no rate headers)', () => {
	test.each([
		[10, 20],
		[10, 100],
		[50, 20],
		[50, 100],
	])(
		'%d/s, %d ms away: a later run is refused no more than 2 %% and takes at most 1.10× the floor',
		async (limit, latencyMs) => {
			const api = new PacedApi({ limit: () => limit, latencyMs, headers: 'none' });
			await api.runs([{ items: 300, concurrency: 50 }]);
			await api.idle(3000);
			const [run] = await api.runs([{ items: 300, concurrency: 50 }]);
			expect(run.refused / run.requests).toBeLessThanOrEqual(0.02);
			expect(run.timeMs / ((300 * 1000) / limit + 2 * latencyMs)).toBeLessThanOrEqual(1.1);
		},
	);

	test('a climb refused right after is undone, not taken for a drop of the limit', async () => {
		const { clock, apiKey, pacer } = apiKeyAndRun();
		for (let i = 0; i < 10; i++) pacer.finished((await pacer.nextStart())!, { kind: 'accepted' });
		pacer.finished((await pacer.nextStart())!, { kind: 'throttled' }); // 10 taken: the limit is 10
		expect(apiKey.rate).toBe(10);
		clock.time += 3000;
		// A window at 10, then one more is tried and goes through: the window's edge had room.
		pacer.finished(await acceptUntilProbe(pacer), { kind: 'accepted' });
		expect(apiKey.rate).toBe(11);
		// ...but the next one over is refused, and then one within the 11 is too: back to 10, not
		// down to 7 as for a drop.
		await refuseThroughPaced(pacer);
		expect(apiKey.rate).toBe(10);
		// And the next try at 11 waits longer than the first did.
		const tried = clock.time;
		const again = await acceptUntilProbe(pacer);
		expect(again.at - tried).toBeGreaterThanOrEqual(4000);
	});

	test('a limit that drops before the first 429: returns aim at what the API took before', async () => {
		const api = new PacedApi({ limit: (t) => (t >= 2000 && t < 4000 ? 25 : 50), latencyMs: 100 });
		await api.runs([{ items: 400, concurrency: 50 }]); // 50 a second taken before the first 429
		const back = api.accepted.find((at) => at >= 4000 && api.peakRate(at, at + 1000) >= 45);
		expect(back! - 4000).toBeLessThanOrEqual(2000);
	});
});
