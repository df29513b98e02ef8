import {
	deliveryKey,
	isSeen,
	MAX_SEEN_EVENTS,
	ProcessSeenEvents,
	readSeenEvents,
	rememberEvent,
	seenUntil,
} from '../../nodes/PartnerLogistics/webhook/dedupe';

const NOW = 1_000_000;

describe('remembered event ids', () => {
	it('remembers an id until it expires', () => {
		const seen = rememberEvent([], 'a', NOW + 300_000, NOW);
		expect(isSeen(seen, 'a', NOW + 299_999)).toBe(true);
		expect(isSeen(seen, 'a', NOW + 300_000)).toBe(false);
		expect(isSeen(seen, 'b', NOW)).toBe(false);
	});

	it('drops expired entries and keeps one entry per id', () => {
		let seen = rememberEvent([], 'old', NOW + 10, NOW);
		seen = rememberEvent(seen, 'a', NOW + 500, NOW);
		seen = rememberEvent(seen, 'a', NOW + 900, NOW + 20);
		expect(seen).toEqual([{ id: 'a', until: NOW + 900 }]);
	});

	it(`keeps at most ${MAX_SEEN_EVENTS} ids, the ones expiring last`, () => {
		let seen = readSeenEvents([]);
		for (let i = 0; i < MAX_SEEN_EVENTS + 250; i++)
			seen = rememberEvent(seen, `id${i}`, NOW + 1000 + i, NOW);
		expect(seen).toHaveLength(MAX_SEEN_EVENTS);
		expect(isSeen(seen, 'id249', NOW)).toBe(false);
		expect(isSeen(seen, 'id250', NOW)).toBe(true);
		expect(JSON.stringify(seen).length).toBeLessThan(60_000);
	});

	it('reads only valid entries from whatever static data holds', () => {
		expect(readSeenEvents(undefined)).toEqual([]);
		expect(readSeenEvents({ a: 1 })).toEqual([]);
		expect(readSeenEvents([{ id: 'a', until: 5 }, { id: 1 }, null, 'x'])).toEqual([
			{ id: 'a', until: 5 },
		]);
	});

	it('remembers an id as long as a delivery with its timestamp could still verify', () => {
		expect(seenUntil(undefined, NOW, 300)).toBe(NOW + 300_000);
		expect(seenUntil(NOW - 100_000, NOW, 300)).toBe(NOW + 300_000);
		expect(seenUntil(NOW + 200_000, NOW, 300)).toBe(NOW + 500_000);
	});

	it('keys a delivery without an id by a digest of its body', () => {
		const body = Buffer.from('{"a":1}');
		expect(deliveryKey('evt_1', body)).toBe('evt_1');
		expect(deliveryKey(null, body)).toBe(deliveryKey(null, Buffer.from('{"a":1}')));
		expect(deliveryKey(null, body)).not.toBe(deliveryKey(null, Buffer.from('{"a":2}')));
	});
});

describe('ProcessSeenEvents', () => {
	it('lets only the first claim of an id through, per scope, until it expires', () => {
		const claims = new ProcessSeenEvents();
		expect(claims.claim('wf1/node', 'a', NOW + 100, NOW)).toBe(true);
		expect(claims.claim('wf1/node', 'a', NOW + 100, NOW + 1)).toBe(false);
		expect(claims.claim('wf2/node', 'a', NOW + 100, NOW + 1)).toBe(true);
		expect(claims.claim('wf1/node', 'a', NOW + 300, NOW + 100)).toBe(true);
	});
});
