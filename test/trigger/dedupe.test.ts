import {
	deliveryId,
	EventIdMemory,
	isRedelivery,
	MAX_REMEMBERED_EVENTS,
	rememberUntil,
} from '../../nodes/PartnerLogistics/webhook/dedupe';

const NOW = 1_000_000;
const HOUR = 3_600_000;

describe('EventIdMemory', () => {
	it('lets only the first claim of an id through, per trigger, until it expires', () => {
		const memory = new EventIdMemory();
		expect(memory.claim('wf1/node', 'a', NOW + 100, NOW)).toBe(true);
		expect(memory.claim('wf1/node', 'a', NOW + 100, NOW + 1)).toBe(false);
		expect(memory.claim('wf2/node', 'a', NOW + 100, NOW + 1)).toBe(true);
		expect(memory.claim('wf1/node', 'b', NOW + 100, NOW + 1)).toBe(true);
		expect(memory.claim('wf1/node', 'a', NOW + 300, NOW + 100)).toBe(true);
		expect(memory.claim('wf1/node', 'a', NOW + 300, NOW + 299)).toBe(false);
	});

	it(`holds at most ${MAX_REMEMBERED_EVENTS} ids per trigger by default, dropping the oldest first`, () => {
		const memory = new EventIdMemory();
		const until = NOW + 24 * HOUR;
		for (let i = 0; i < MAX_REMEMBERED_EVENTS + 5; i++) memory.claim('t', `id${i}`, until, NOW);
		expect(memory.size('t')).toBe(MAX_REMEMBERED_EVENTS);
		// The five oldest went; the sixth oldest and the newest are still held.
		expect(memory.claim('t', 'id5', until, NOW)).toBe(false);
		expect(memory.claim('t', `id${MAX_REMEMBERED_EVENTS + 4}`, until, NOW)).toBe(false);
		expect(memory.claim('t', 'id4', until, NOW)).toBe(true);
	});

	it('counts a re-claimed id as new, so it is not the first to go', () => {
		const memory = new EventIdMemory(3);
		memory.claim('t', 'a', NOW + 10, NOW);
		memory.claim('t', 'b', NOW + 1000, NOW);
		memory.claim('t', 'c', NOW + 1000, NOW);
		// 'a' expired and is claimed again: it moves behind 'b' and 'c'.
		expect(memory.claim('t', 'a', NOW + 1000, NOW + 20)).toBe(true);
		memory.claim('t', 'd', NOW + 1000, NOW + 20);
		expect(memory.claim('t', 'a', NOW + 1000, NOW + 20)).toBe(false);
		expect(memory.claim('t', 'b', NOW + 1000, NOW + 20)).toBe(true);
	});

	it('drops expired ids as it goes, so an idle trigger does not keep them', () => {
		const memory = new EventIdMemory();
		for (let i = 0; i < 100; i++) memory.claim('t', `old${i}`, NOW + 10, NOW);
		memory.claim('t', 'new', NOW + 1000, NOW + 20);
		expect(memory.size('t')).toBe(1);
	});
});

describe('rememberUntil', () => {
	const settings = { toleranceSeconds: 300, rememberEventIdsHours: 24 };

	it('remembers an id for the configured hours, whatever the tolerance', () => {
		expect(rememberUntil(NOW, NOW, settings)).toBe(NOW + 24 * HOUR);
		expect(rememberUntil(undefined, NOW, { ...settings, rememberEventIdsHours: 0.5 })).toBe(
			NOW + HOUR / 2,
		);
	});

	it('never for less than a replay of the delivery could still pass the timestamp check', () => {
		const none = { ...settings, rememberEventIdsHours: 0 };
		expect(rememberUntil(undefined, NOW, none)).toBe(NOW + 300_000);
		expect(rememberUntil(NOW - 100_000, NOW, none)).toBe(NOW + 300_000);
		expect(rememberUntil(NOW + 200_000, NOW, none)).toBe(NOW + 500_000);
	});
});

describe('deliveryId', () => {
	it('keys a delivery by its event id, or else by a digest of its body', () => {
		const body = Buffer.from('{"a":1}');
		expect(deliveryId('evt_1', body)).toBe('evt_1');
		expect(deliveryId(null, body)).toBe(deliveryId(null, Buffer.from('{"a":1}')));
		expect(deliveryId(null, body)).not.toBe(deliveryId(null, Buffer.from('{"a":2}')));
	});
});

describe('isRedelivery', () => {
	const rawBody = Buffer.from('{"type":"booking.created"}');
	const signedNow = { timestampMs: NOW };
	let scope = 0;
	const newTrigger = () => `workflow/trigger-${++scope}`;

	it('knows a retry by its event id for Remember Event IDs For (Hours), per trigger', () => {
		const settings = { toleranceSeconds: 1, rememberEventIdsHours: 24 };
		const [trigger, other] = [newTrigger(), newTrigger()];
		const seen = (scope: string, now: number, body = rawBody) =>
			isRedelivery(scope, 'msg_1', { rawBody: body }, signedNow, settings, now);
		expect(seen(trigger, NOW)).toBe(false);
		// A retry re-signed hours later carries the same id, whatever its body bytes.
		expect(seen(trigger, NOW + 23 * HOUR, Buffer.from('{}'))).toBe(true);
		expect(seen(other, NOW + 1)).toBe(false);
		expect(seen(trigger, NOW + 24 * HOUR + 1)).toBe(false);
	});

	it('with 0 hours, remembers an id only as long as a replay could pass the timestamp check', () => {
		const settings = { toleranceSeconds: 1, rememberEventIdsHours: 0 };
		const trigger = newTrigger();
		const seen = (now: number) =>
			isRedelivery(trigger, 'msg_2', { rawBody }, signedNow, settings, now);
		expect(seen(NOW)).toBe(false);
		expect(seen(NOW + 999)).toBe(true);
		expect(seen(NOW + 1001)).toBe(false);
	});

	it('knows a redelivery of an event without an id by its body', () => {
		const settings = { toleranceSeconds: 300, rememberEventIdsHours: 24 };
		const trigger = newTrigger();
		const seen = (body: string) =>
			isRedelivery(trigger, null, { rawBody: Buffer.from(body) }, {}, settings, NOW);
		const array = '[{"id":"evt_1","type":"booking.created"},{"id":"evt_2"}]';
		expect(seen(array)).toBe(false);
		expect(seen(array)).toBe(true);
		// Another body is another event.
		expect(seen('[{"id":"evt_3"}]')).toBe(false);
		expect(seen('"hello"')).toBe(false);
		expect(seen('"hello"')).toBe(true);
	});
});
