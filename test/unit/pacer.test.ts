import { Pacer, type Clock } from '../../nodes/PartnerLogistics/pipeline/pacer';
import { rateLimitedBatch } from './pacing';

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

/** Starts `count` requests one after another, each answered at once (accepted). */
async function startMany(pacer: Pacer, count: number) {
	const starts: number[] = [];
	for (let i = 0; i < count; i++) {
		const startedAt = await pacer.nextStart();
		starts.push(startedAt);
		pacer.accepted(startedAt);
	}
	return starts;
}

test('Max Requests per Second spaces the starts evenly', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 4 }, clock);
	expect(await startMany(pacer, 5)).toEqual([0, 250, 500, 750, 1000]);
});

test("n8n's batching: a batch, then the next one an interval later", async () => {
	const clock = fakeClock();
	const pacer = new Pacer(
		{ concurrency: 10, maxPerSecond: 0, batch: { size: 2, intervalMs: 1000 } },
		clock,
	);
	expect(await startMany(pacer, 5)).toEqual([0, 0, 1000, 1000, 2000]);
});

test('before the API has refused anything: 2 in flight, doubling every 250 ms up to Concurrency', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 5, maxPerSecond: 0 }, clock);
	const first = await pacer.nextStart();
	await pacer.nextStart();
	pacer.accepted(first); // an answer frees its place at once
	expect(await pacer.nextStart()).toBe(0);
	// Two in flight, none answered: the next waits for the quarter second that doubles the cap.
	expect(await pacer.nextStart()).toBe(250);
	expect(await pacer.nextStart()).toBe(250);
	expect(await pacer.nextStart()).toBe(500); // 5 in flight: Concurrency, never more
	let sixth: number | undefined;
	const waiting = pacer.nextStart().then((at) => (sixth = at));
	for (let i = 0; i < 10; i++) await Promise.resolve();
	expect(sixth).toBeUndefined();
	pacer.accepted(0);
	await waiting;
	expect(sixth).toBe(500);
	expect(pacer.rate).toBe(Infinity);
});

test('a 429 teaches the limit: what the API accepted in the last second, never more per second after', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	for (let i = 0; i < 30; i++) {
		const startedAt = await pacer.nextStart();
		clock.time += 10; // 30 accepted within 300 ms
		pacer.accepted(startedAt);
	}
	const refused = await pacer.nextStart();
	pacer.throttled(refused);
	expect(pacer.rate).toBeCloseTo(30);
	// The API goes on taking 30 per rolling second and says nothing of its limit.
	const accepted: number[] = [];
	let refusals = 0;
	const starts: number[] = [];
	for (let i = 0; i < 60; i++) {
		const at = await pacer.nextStart();
		starts.push(at);
		if (accepted.filter((other) => other > at - 1000).length < 30) {
			accepted.push(at);
			pacer.accepted(at);
		} else {
			refusals++;
			pacer.throttled(at);
		}
	}
	// Only the probes (one start over the limit, now and then) meet a 429.
	expect(refusals).toBeLessThanOrEqual(2);
	for (const at of starts) {
		expect(starts.filter((other) => other > at - 1000 && other <= at).length).toBeLessThanOrEqual(
			31,
		);
	}
	// Sixty starts at 30 per second take two windows, not three.
	expect(starts[59] - starts[0]).toBeLessThan(2100);
});

test('a 429 before any of ours was accepted pauses every start as asked, and teaches no limit', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	pacer.throttled(await pacer.nextStart(), { waitMs: 1000 }); // others used the key's quota
	expect(await pacer.nextStart()).toBe(1000);
	expect(pacer.rate).toBe(Infinity);
});

test('a limit learned while others used the key climbs back to the one the API states', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	for (let i = 0; i < 10; i++) pacer.accepted(await pacer.nextStart());
	pacer.throttled(await pacer.nextStart(), { told: 40 }); // 40 stated, 10 of them ours
	expect(pacer.rate).toBe(10);
	await startMany(pacer, 60); // the others stopped: every start is accepted
	expect(pacer.rate).toBe(40);
});

test('a limit the API states is believed when it is no more than it accepted', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	for (let i = 0; i < 20; i++) pacer.accepted(await pacer.nextStart());
	pacer.throttled(await pacer.nextStart(), { told: 12 });
	expect(pacer.rate).toBe(12);

	const other = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	for (let i = 0; i < 20; i++) other.accepted(await other.nextStart());
	other.throttled(await other.nextStart(), { told: 3600 }); // e.g. per hour: not a per-second limit
	expect(other.rate).toBe(20);
});

test('a 429 while paced lowers the limit; a probe brings it back once the API accepts more', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	for (let i = 0; i < 20; i++) pacer.accepted(await pacer.nextStart());
	pacer.throttled(await pacer.nextStart());
	expect(pacer.rate).toBe(20);
	clock.time += 2000;
	pacer.throttled(await pacer.nextStart()); // the API now takes fewer
	expect(pacer.rate).toBe(14);
	// A second later one start more than 14 in a window is tried; accepted, the limit is back.
	const starts = await startMany(pacer, 40);
	expect(pacer.rate).toBe(20);
	const perWindow = (at: number) => starts.filter((s) => s > at - 1000 && s <= at).length;
	expect(Math.max(...starts.map(perWindow))).toBe(20);
});

test('a 429 for a request sent after the limit last changed lowers it, however slow round trips once were', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 100, maxPerSecond: 0 }, clock);
	const slow = await pacer.nextStart();
	clock.time += 2000; // one answer took 2 s
	pacer.accepted(slow);
	for (let i = 0; i < 19; i++) pacer.accepted(await pacer.nextStart());
	const learnedWith = await pacer.nextStart();
	pacer.throttled(learnedWith);
	expect(pacer.rate).toBe(20);
	// The next start, a window later, is refused 10 ms after it left: the API takes fewer now.
	const sent = await pacer.nextStart();
	clock.time += 10;
	pacer.throttled(sent);
	expect(pacer.rate).toBe(14);
	// A refusal of a request sent before that change teaches nothing more.
	pacer.throttled(learnedWith);
	expect(pacer.rate).toBe(14);
});

test('a timer that fires late does not slow the starts after it', async () => {
	const clock = fakeClock();
	const late = { ...clock, wait: async (ms: number) => void (clock.time += ms + 3) };
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 50 }, late);
	const starts = await startMany(pacer, 51);
	// 50 intervals of 20 ms: late timers (3 ms each) are caught up on, not added up.
	expect(starts[50]).toBeLessThanOrEqual(1000 + 3);
});

describe('300 requests against an API limiting them per rolling second, 20 at a time', () => {
	// A virtual-time model of the pipeline against the sandbox's limiter (bench/payments.ts
	// measures the same in real n8n): the time against the floor the limit allows, and how many
	// requests the API refused.
	test.each([
		['10/s', () => 10, 30_000],
		['50/s', () => 50, 6000],
		['200/s', () => 200, 1500],
		['50/s, halved from 2 s to 4 s', (t: number) => (t >= 2000 && t < 4000 ? 25 : 50), 7000],
	])('%s: at most 2 %% refused, within 1.05× the floor', async (_name, limit, floorMs) => {
		const run = await rateLimitedBatch({ items: 300, concurrency: 20, limit, latencyMs: 2 });
		expect(run.refused / run.requests).toBeLessThanOrEqual(0.02);
		expect(run.timeMs / floorMs).toBeLessThanOrEqual(1.05);
	});

	test('without a stated limit it still learns it, from what the API accepted', async () => {
		const run = await rateLimitedBatch({
			items: 300,
			concurrency: 20,
			limit: () => 50,
			latencyMs: 2,
			stateLimit: false,
		});
		expect(run.refused / run.requests).toBeLessThanOrEqual(0.02);
		expect(run.timeMs / 6000).toBeLessThanOrEqual(1.05);
	});
});
