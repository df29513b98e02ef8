import { Pacer, type Clock } from '../../nodes/PartnerLogistics/pipeline/pacer';

/** A clock that only moves when the pacer waits: start times are exact. */
function fakeClock(): Clock & { starts: number[]; time: number } {
	const clock = {
		time: 0,
		starts: [] as number[],
		now: () => clock.time,
		wait: async (ms: number) => {
			clock.time += ms;
		},
	};
	return clock;
}

async function startMany(pacer: Pacer, clock: ReturnType<typeof fakeClock>, count: number) {
	for (let i = 0; i < count; i++) {
		await pacer.nextStart();
		clock.starts.push(clock.time);
	}
}

test('unpaced until the API pushes back', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 0 }, clock);
	await startMany(pacer, clock, 5);
	expect(clock.starts).toEqual([0, 0, 0, 0, 0]);
	expect(pacer.rate).toBe(Infinity);
});

test('Max Requests per Second spaces the starts evenly', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 4 }, clock);
	await startMany(pacer, clock, 5);
	expect(clock.starts).toEqual([0, 250, 500, 750, 1000]);
});

test("n8n's batching: a batch, then the next one an interval later", async () => {
	const clock = fakeClock();
	const pacer = new Pacer(
		{ concurrency: 10, maxPerSecond: 0, batch: { size: 2, intervalMs: 1000 } },
		clock,
	);
	await startMany(pacer, clock, 5);
	expect(clock.starts).toEqual([0, 0, 1000, 1000, 2000]);
});

test('a 429 pauses everybody for Retry-After, then sends a little under the accepted rate', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 0 }, clock);
	for (let i = 0; i < 50; i++) {
		await pacer.nextStart();
		clock.time += 10; // 50 answers accepted within 500 ms
		pacer.accepted();
	}
	pacer.throttled(1000);
	// Requests already in flight are refused too: they do not lower the rate again.
	pacer.throttled(1000);
	pacer.throttled(1000);
	expect(pacer.rate).toBeCloseTo(47.5, 5);
	const pausedAt = clock.time;
	await startMany(pacer, clock, 3);
	expect(clock.starts[0]).toBe(pausedAt + 1000);
	expect(clock.starts[1] - clock.starts[0]).toBeCloseTo(1000 / 47.5, 5);
	expect(clock.starts[2] - clock.starts[1]).toBeCloseTo(1000 / 47.5, 5);
});

test('after ten seconds without a 429 the rate is probed upwards', async () => {
	const clock = fakeClock();
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 0 }, clock);
	pacer.accepted();
	pacer.throttled(0);
	const learned = pacer.rate;
	clock.time += 10_000;
	pacer.accepted();
	expect(pacer.rate).toBeGreaterThan(learned);
});

test('a timer that fires late does not slow the starts after it', async () => {
	const clock = fakeClock();
	const late = { ...clock, wait: async (ms: number) => void (clock.time += ms + 3) };
	const pacer = new Pacer({ concurrency: 10, maxPerSecond: 50 }, late);
	await startMany(pacer, clock, 51);
	// 50 intervals of 20 ms: late timers (3 ms each) are caught up on, not added up.
	expect(clock.starts[50]).toBeLessThanOrEqual(1000 + 3);
});
