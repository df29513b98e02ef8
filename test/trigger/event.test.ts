import {
	acceptsEventType,
	eventItem,
	isJsonContentType,
	parseEventBody,
	readField,
} from '../../nodes/PartnerLogistics/webhook/event';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('parseEventBody', () => {
	it('parses a JSON object from the raw bytes', () => {
		expect(parseEventBody(json({ type: 'a' }), 'application/json; charset=utf-8')).toEqual({
			ok: true,
			event: { type: 'a' },
		});
		expect(parseEventBody(Buffer.from('\uFEFF{"a":1}'), 'application/json')).toMatchObject({
			ok: true,
		});
	});

	it.each([
		['text/plain', json({ type: 'a' }), 'not-json-content-type'],
		['application/x-www-form-urlencoded', Buffer.from('a=1'), 'not-json-content-type'],
		[undefined, json({ type: 'a' }), 'not-json-content-type'],
		['application/json', Buffer.from('{"type":'), 'invalid-json'],
		['application/json', Buffer.alloc(0), 'invalid-json'],
		['application/json', json([1, 2]), 'not-a-json-object'],
		['application/json', json('text'), 'not-a-json-object'],
		['application/json', Buffer.from('null'), 'not-a-json-object'],
	])('refuses %s %j', (contentType, body, reason) => {
		expect(parseEventBody(body, contentType)).toEqual({ ok: false, reason });
	});

	it('accepts +json media types', () => {
		expect(isJsonContentType('application/cloudevents+json')).toBe(true);
		expect(isJsonContentType('APPLICATION/JSON')).toBe(true);
		expect(isJsonContentType('application/jsonp')).toBe(false);
	});
});

describe('readField', () => {
	it('reads top-level, nested and dotted keys', () => {
		const event = { type: 't', data: { kind: 'k' }, 'event.type': 'dotted' };
		expect(readField(event, 'type')).toBe('t');
		expect(readField(event, 'data.kind')).toBe('k');
		expect(readField(event, 'event.type')).toBe('dotted');
		expect(readField(event, 'data.kind.deeper')).toBeUndefined();
		expect(readField(event, 'missing.path')).toBeUndefined();
	});
});

describe('acceptsEventType', () => {
	it.each([
		[[], 'anything', true],
		[[], null, true],
		[['*'], null, true],
		[['booking.created'], 'booking.created', true],
		[['booking.created'], 'booking.cancelled', false],
		[['booking.*'], 'booking.cancelled', true],
		[['booking.*'], 'payment.succeeded', false],
		[['booking.created'], null, false],
	])('%j accepts %s: %s', (accepted, type, expected) => {
		expect(acceptsEventType(accepted, type)).toBe(expected);
	});
});

describe('eventItem', () => {
	const settings = { eventIdField: 'id', eventTypeField: 'type' };
	const headers = { 'content-type': 'application/json' };

	it('takes the id from the verified header before the payload', () => {
		const item = eventItem(
			{ id: 'payload-id', type: 'x' },
			{ ok: true, eventId: 'msg_1', timestampMs: Date.UTC(2026, 0, 1) },
			settings,
			headers,
		);
		expect(item).toEqual({
			id: 'msg_1',
			type: 'x',
			timestamp: '2026-01-01T00:00:00.000Z',
			event: { id: 'payload-id', type: 'x' },
			headers,
		});
	});

	it('falls back to payload fields and nulls', () => {
		expect(eventItem({ id: 42 }, { ok: true }, settings, headers)).toMatchObject({
			id: '42',
			type: null,
			timestamp: null,
		});
		expect(eventItem({ type: { nested: true } }, { ok: true }, settings, headers).type).toBeNull();
	});
});
