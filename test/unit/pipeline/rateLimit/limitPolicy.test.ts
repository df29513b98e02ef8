import {
	UNKNOWN,
	afterAccepted,
	afterThrottled,
	nextSlot,
	probeDue,
	type Asked,
	type AtBest,
	type BelowBest,
	type Climbed,
	type Heard,
} from '../../../../nodes/PartnerLogistics/pipeline/rateLimit/limitPolicy';

// The limit policy's states and the transitions out of each, pure: a state and an answer in, the
// next state out. pacer.test.ts runs the same rules through the queue against a modelled API.

/** An answer at 10 s to a request sent 10 ms before, nothing said, none accepted lately. */
function heard(more: Partial<Heard> = {}): Heard {
	return {
		now: 10_000,
		at: 9990,
		probe: false,
		told: undefined,
		accepted: 0,
		tookInOneWindow: () => 0,
		...more,
	};
}

/** A start asked for at 10 s: nothing in the way unless said. */
function asked(more: Partial<Asked> = {}, leaving: number[] = [], counted = 0): Asked {
	return {
		now: 10_000,
		pausedUntil: -Infinity,
		quotaSpentUntil: undefined,
		lastStartAt: -Infinity,
		probing: false,
		stated: undefined,
		starts: {
			proven: 0,
			countedSince: () => ({ counted, firstLeavesAt: 10_400 }),
			leaving: () => [...leaving],
		},
		...more,
	};
}

const known = { limit: 20, changedAt: 5000, climbAfter: 2000, climbWait: 2000 };
const atBest: AtBest = { name: 'atBest', ...known };
const climbed: Climbed = { name: 'climbed', ...known, limit: 21, from: 20, checkedAt: -Infinity };
const belowBest: BelowBest = {
	name: 'belowBest',
	...known,
	limit: 14,
	best: 20,
	returnAfter: 1000,
};

/** Twenty starts still counted, the first leaving the window at 10.1 s. */
const fullWindow = Array.from({ length: 20 }, (_, i) => 10_100 + i * 10);

describe('unknown: no 429 yet', () => {
	test('starts go at once while fewer than 5 above what the API took may still count', () => {
		expect(nextSlot(UNKNOWN, asked({}, [], 4))).toEqual({ at: -Infinity, probe: false });
		expect(nextSlot(UNKNOWN, asked({}, [], 5))).toEqual({ at: 10_400, probe: false });
	});

	test('a pause, or a quota said spent, holds them; never a probe', () => {
		expect(nextSlot(UNKNOWN, asked({ pausedUntil: 11_000 }))).toEqual({ at: 11_000, probe: false });
		expect(nextSlot(UNKNOWN, asked({ quotaSpentUntil: 10_800 }))).toEqual({
			at: 10_800,
			probe: false,
		});
	});

	test('an answer accepted teaches nothing, unless it says nothing remains: then the limit', () => {
		expect(afterAccepted(UNKNOWN, heard({ accepted: 9 }), false)).toBe(UNKNOWN);
		expect(afterAccepted(UNKNOWN, heard({ accepted: 10, told: 10 }), true)).toMatchObject({
			name: 'atBest',
			limit: 10,
			changedAt: 10_000,
		});
	});

	test('a 429 with nothing accepted and nothing said pauses, and teaches no limit', () => {
		expect(afterThrottled(UNKNOWN, heard())).toBe('pause');
	});

	test('a 429 teaches what the API accepted, or the limit it states when not more than that', () => {
		expect(afterThrottled(UNKNOWN, heard({ accepted: 20 }))).toEqual({
			name: 'atBest',
			limit: 20,
			changedAt: 10_000,
			climbAfter: 2000,
			climbWait: 2000,
		});
		expect(afterThrottled(UNKNOWN, heard({ accepted: 20, told: 12 }))).toMatchObject({ limit: 12 });
		expect(afterThrottled(UNKNOWN, heard({ accepted: 20, told: 3600 }))).toMatchObject({
			limit: 20,
		});
		expect(afterThrottled(UNKNOWN, heard({ told: 1 }))).toMatchObject({ limit: 1 });
	});

	test('learned below what it took in one window before (the limit dropped): below the best', () => {
		expect(afterThrottled(UNKNOWN, heard({ accepted: 25, tookInOneWindow: () => 50 }))).toEqual({
			name: 'belowBest',
			limit: 25,
			best: 50,
			returnAfter: 1000,
			changedAt: 10_000,
			climbAfter: 2000,
			climbWait: 2000,
		});
	});
});

describe('atBest: at the best limit the API took', () => {
	test('fewer than the limit still counted: the next start goes, spaced at twice its pace', () => {
		const slot = nextSlot(atBest, asked({ lastStartAt: 9990 }, fullWindow.slice(1)));
		expect(slot).toEqual({ at: 9990 + 1000 / 40, probe: false });
	});

	test('the window full: one more is tried once climbAfter has passed, else the next start waits', () => {
		expect(nextSlot(atBest, asked({}, fullWindow))).toEqual({ at: -Infinity, probe: true });
		const calm = { ...atBest, changedAt: 9000 };
		expect(nextSlot(calm, asked({}, fullWindow))).toEqual({ at: 10_100, probe: false });
		expect(nextSlot(atBest, asked({ probing: true }, fullWindow)).probe).toBe(false);
		expect(nextSlot(atBest, asked({ quotaSpentUntil: 10_500 }, fullWindow)).probe).toBe(false);
	});

	test('no climb past a limit the API states', () => {
		expect(probeDue(atBest, 10_000, 20)).toBe(false);
		expect(probeDue(atBest, 10_000, 40)).toBe(true);
	});

	test('a probe accepted: climbed one above, on trial, the next tried as soon as the window is full', () => {
		expect(afterAccepted(atBest, heard({ probe: true }), false)).toEqual({
			name: 'climbed',
			from: 20,
			checkedAt: -Infinity,
			limit: 21,
			changedAt: 10_000,
			climbAfter: 0,
			climbWait: 2000,
		});
	});

	test('a probe refused: still at its best, the next try twice as late, at most 16 s', () => {
		expect(afterThrottled(atBest, heard({ probe: true }))).toEqual({
			...atBest,
			changedAt: 10_000,
			climbAfter: 4000,
		});
		const later = afterThrottled({ ...atBest, climbAfter: 0 }, heard({ probe: true }));
		expect(later).toMatchObject({ climbAfter: 2000 });
		const rare = afterThrottled({ ...atBest, climbAfter: 16_000 }, heard({ probe: true }));
		expect(rare).toMatchObject({ climbAfter: 16_000 });
	});

	test('a 429 for a start since the last change: below the best, at 0.7 of it or what the API says', () => {
		expect(afterThrottled(atBest, heard())).toEqual({
			...belowBest,
			changedAt: 10_000,
		});
		expect(afterThrottled(atBest, heard({ told: 10, accepted: 15 }))).toMatchObject({
			name: 'belowBest',
			limit: 10,
		});
		const one = { ...atBest, limit: 1 };
		expect(afterThrottled(one, heard())).toMatchObject({ name: 'atBest', limit: 1 });
	});

	test('a 429 for a start sent before the last change teaches nothing', () => {
		expect(afterThrottled(atBest, heard({ at: 4990 }))).toBe(atBest);
	});
});

describe('climbed: one above the best, on trial', () => {
	test('another probe accepted climbs on, from the same limit', () => {
		expect(afterAccepted(climbed, heard({ now: 5500, probe: true }), false)).toMatchObject({
			name: 'climbed',
			from: 20,
			limit: 22,
		});
	});

	test('a 429 for a start since the climb undoes it, and the next climb waits twice as long', () => {
		expect(afterThrottled(climbed, heard())).toEqual({
			name: 'atBest',
			limit: 20,
			changedAt: 10_000,
			climbAfter: 4000,
			climbWait: 4000,
		});
	});

	test('the API took the new limit within one window: the climb stands', () => {
		const took = heard({ tookInOneWindow: () => 21 });
		expect(afterAccepted(climbed, took, false)).toEqual({ ...atBest, limit: 21 });
	});

	test('looked at once a window: not yet taken, looked at again a window later', () => {
		const soon = heard({ now: 5500, tookInOneWindow: () => 21 });
		expect(afterAccepted(climbed, soon, false)).toBe(climbed);
		const notYet = afterAccepted(climbed, heard({ tookInOneWindow: () => 20 }), false);
		expect(notYet).toEqual({ ...climbed, checkedAt: 10_000 });
		const within = heard({ now: 10_500, tookInOneWindow: () => 21 });
		expect(afterAccepted(notYet, within, false)).toBe(notYet);
	});
});

describe('belowBest: lowered below the best the API took', () => {
	test('a return is tried returnAfter after the drop, the stated limit notwithstanding', () => {
		expect(probeDue(belowBest, 5999, 14)).toBe(false);
		expect(probeDue(belowBest, 6000, 14)).toBe(true);
	});

	test('a return accepted: back at the best, the climb wait as it was', () => {
		expect(afterAccepted(belowBest, heard({ probe: true }), false)).toEqual({
			...atBest,
			changedAt: 10_000,
		});
	});

	test('a return refused: the next 1.5× later, at most 2 s', () => {
		const once = afterThrottled(belowBest, heard({ probe: true }));
		expect(once).toEqual({ ...belowBest, changedAt: 10_000, returnAfter: 1500 });
		expect(afterThrottled(once as BelowBest, heard({ probe: true }))).toMatchObject({
			returnAfter: 2000,
		});
	});

	test('another 429 lowers it further, aiming back at the same best', () => {
		expect(afterThrottled({ ...belowBest, returnAfter: 1500 }, heard())).toEqual({
			...belowBest,
			limit: 9,
			changedAt: 10_000,
			returnAfter: 1500,
		});
	});
});
