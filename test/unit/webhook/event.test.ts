import type { JsonValue } from 'n8n-workflow';

import { valueAt } from '../../../nodes/PartnerLogistics/shared/valueAt';
import {
	acceptsEventType,
	eventItem,
	parseEventBody,
} from '../../../nodes/PartnerLogistics/webhook/event';

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
		['application/json', Buffer.from('[1, 2'), 'invalid-json'],
		['text/plain', json([1, 2]), 'not-json-content-type'],
	])('refuses %s %j', (contentType, body, reason) => {
		expect(parseEventBody(body, contentType)).toEqual({ ok: false, reason });
	});

	it.each([
		['an array of objects', '[{"a":1},{"b":[2,3]}]', [{ a: 1 }, { b: [2, 3] }]],
		['an empty array', '[]', []],
		['a string', '"hello"', 'hello'],
		['a number', '42.5', 42.5],
		['zero', '0', 0],
		['false', 'false', false],
		['null', 'null', null],
		['an empty object', '{}', {}],
	])('keeps %s whole', (_label, body, event) => {
		expect(parseEventBody(Buffer.from(body), 'application/json')).toEqual({ ok: true, event });
	});

	it('accepts +json media types', () => {
		const parsed = (contentType: string) => parseEventBody(json({}), contentType).ok;
		expect(parsed('application/cloudevents+json')).toBe(true);
		expect(parsed('APPLICATION/JSON')).toBe(true);
		expect(parsed('application/jsonp')).toBe(false);
		expect(parsed('application/+json')).toBe(false);
	});
});

describe('valueAt, on an event payload', () => {
	it('reads top-level, nested and dotted keys', () => {
		const event = { type: 't', data: { kind: 'k' }, 'event.type': 'dotted' };
		expect(valueAt(event, 'type')).toBe('t');
		expect(valueAt(event, 'data.kind')).toBe('k');
		expect(valueAt(event, 'event.type')).toBe('dotted');
		expect(valueAt(event, 'data.kind.deeper')).toBeUndefined();
		expect(valueAt(event, 'missing.path')).toBeUndefined();
	});

	it('finds no field in a payload that is not an object, nor inherited ones', () => {
		expect(valueAt([{ type: 't' }], '0.type')).toBeUndefined();
		expect(valueAt([{ type: 't' }], 'length')).toBeUndefined();
		expect(valueAt('type', 'type')).toBeUndefined();
		expect(valueAt(null, 'type')).toBeUndefined();
		expect(valueAt({}, 'constructor')).toBeUndefined();
		expect(valueAt({ data: {} }, 'data.toString')).toBeUndefined();
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
	const settings = { eventIdField: 'id', eventTypeField: 'type', eventTypeHeader: '' };
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

	describe('a payload that is not an object', () => {
		const signedAt = { ok: true as const, eventId: 'msg_2', timestampMs: Date.UTC(2026, 0, 1) };

		it.each([
			['an array', [{ id: 'evt_1', type: 'booking.created' }, { id: 'evt_2' }]],
			['a string', 'hello'],
			['a number', 7],
			['a boolean', true],
			['null', null],
		] as Array<[string, JsonValue]>)(
			'keeps %s whole as the event, with the id from webhook-id',
			(_label, event) => {
				expect(eventItem(event, signedAt, settings, headers)).toEqual({
					id: 'msg_2',
					type: null,
					timestamp: '2026-01-01T00:00:00.000Z',
					event,
					headers,
				});
			},
		);

		it('has no id or type of its own for the schemes without webhook-id', () => {
			const item = eventItem([{ id: 'evt_1', type: 'booking.created' }], { ok: true }, settings, {
				...headers,
				id: 'header-named-id',
				type: 'header-named-type',
			});
			expect([item.id, item.type]).toEqual([null, null]);
		});
	});

	describe('Event Type Header', () => {
		const withHeader = { ...settings, eventTypeHeader: 'X-Event-TYPE' };
		// Node.js hands header names over in lower case, as n8n's getHeaderData does.
		const sent = { ...headers, 'x-event-type': 'booking.created' };

		it('gives the type of a payload without the type field, read case-insensitively', () => {
			expect(eventItem([1, 2], { ok: true }, withHeader, sent).type).toBe('booking.created');
			expect(eventItem('hello', { ok: true }, withHeader, sent).type).toBe('booking.created');
			expect(eventItem(null, { ok: true }, withHeader, sent).type).toBe('booking.created');
			expect(eventItem({ id: 'evt_1' }, { ok: true }, withHeader, sent)).toMatchObject({
				id: 'evt_1',
				type: 'booking.created',
			});
			const lower = { ...settings, eventTypeHeader: 'x-event-type' };
			expect(eventItem([], { ok: true }, lower, sent).type).toBe('booking.created');
		});

		it('is ignored when the payload has the type field, even one that is not usable', () => {
			expect(eventItem({ type: 'payment.succeeded' }, { ok: true }, withHeader, sent).type).toBe(
				'payment.succeeded',
			);
			expect(eventItem({ type: 0 }, { ok: true }, withHeader, sent).type).toBe('0');
			expect(eventItem({ type: null }, { ok: true }, withHeader, sent).type).toBeNull();
			expect(eventItem({ type: { a: 1 } }, { ok: true }, withHeader, sent).type).toBeNull();
			const nested = { ...withHeader, eventTypeField: 'data.kind' };
			expect(eventItem({ data: { kind: 'k' } }, { ok: true }, nested, sent).type).toBe('k');
			expect(eventItem({ data: {} }, { ok: true }, nested, sent).type).toBe('booking.created');
		});

		it('gives null when the header is absent or empty, and is not read unless named', () => {
			expect(eventItem([], { ok: true }, withHeader, headers).type).toBeNull();
			expect(eventItem([], { ok: true }, withHeader, { 'x-event-type': '' }).type).toBeNull();
			expect(eventItem([], { ok: true }, settings, sent).type).toBeNull();
		});

		it('joins a repeated header the way Node.js does', () => {
			const twice = { 'x-event-type': ['a', 'b'] };
			expect(eventItem([], { ok: true }, withHeader, twice).type).toBe('a, b');
		});
	});
});
