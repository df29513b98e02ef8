// A sender for the HTTP tests: good and bad deliveries signed by the Standard Webhooks reference
// library (no package code), posted with fetch.
import { randomBytes } from 'node:crypto';

import { newWhsec, standardHeaders } from './signers';

export interface Delivery {
	body: string | Buffer;
	headers: Record<string, string>;
}

export interface Sent {
	status: number;
	body: Record<string, unknown>;
}

export const whsec = newWhsec;
export const eventId = () => `msg_${randomBytes(10).toString('hex')}`;
export const unixNow = () => Math.floor(Date.now() / 1000);

export function event(type = 'booking.created', data: Record<string, unknown> = {}) {
	return JSON.stringify({ type, timestamp: new Date().toISOString(), data });
}

/** A correctly signed Standard Webhooks delivery. */
export function signed(
	secret: string,
	body: string | Buffer = event(),
	options: { id?: string; timestamp?: number; contentType?: string } = {},
): Delivery {
	const id = options.id ?? eventId();
	const timestamp = options.timestamp ?? unixNow();
	return {
		body,
		headers: {
			'content-type': options.contentType ?? 'application/json',
			...standardHeaders(secret, body, { id, timestamp }),
		},
	};
}

export async function send(url: string, delivery: Delivery): Promise<Sent> {
	const response = await fetch(url, {
		method: 'POST',
		headers: delivery.headers,
		body: delivery.body,
	});
	const text = await response.text();
	let body: Record<string, unknown> = {};
	try {
		body = JSON.parse(text) as Record<string, unknown>;
	} catch {
		body = { text };
	}
	return { status: response.status, body };
}

function without(delivery: Delivery, header: string): Delivery {
	const headers = { ...delivery.headers };
	delete headers[header];
	return { ...delivery, headers };
}

function withHeader(delivery: Delivery, header: string, value: string): Delivery {
	return { ...delivery, headers: { ...delivery.headers, [header]: value } };
}

/** Flips the case of one letter of the event type: still valid JSON, so it reaches the trigger. */
function alterOneByte(body: string | Buffer, seed: number): Buffer {
	const bytes = Buffer.from(body);
	bytes[bytes.indexOf('booking') + (seed % 7)] ^= 0x20;
	return bytes;
}

/**
 * Kinds of bad delivery against a trigger holding `secret` (and `previous`), each with the status
 * the trigger (or n8n before it) must answer. None may start an execution.
 */
export function badDeliveries(secret: string, seed: number) {
	const stranger = whsec();
	const good = () => signed(secret, event('booking.created', { seed }));
	const signature = (delivery: Delivery) => delivery.headers['webhook-signature'];
	return [
		['signed with another secret', signed(stranger), 401],
		[
			'no signature headers at all',
			{ body: event(), headers: { 'content-type': 'application/json' } },
			401,
		],
		['no webhook-id', without(good(), 'webhook-id'), 401],
		['no webhook-timestamp', without(good(), 'webhook-timestamp'), 401],
		['no webhook-signature', without(good(), 'webhook-signature'), 401],
		['body altered by one byte', { ...good(), body: alterOneByte(good().body, seed) }, 401],
		['stale timestamp', signed(secret, event(), { timestamp: unixNow() - 301 - seed * 97 }), 401],
		['future timestamp', signed(secret, event(), { timestamp: unixNow() + 302 + seed * 89 }), 401],
		['signature moved to another id', withHeader(good(), 'webhook-id', eventId()), 401],
		['signature of another body', withHeader(good(), 'webhook-signature', signature(good())), 401],
		[
			'truncated signature',
			withHeader(good(), 'webhook-signature', signature(good()).slice(0, 20)),
			401,
		],
		['signature that is not base64', withHeader(good(), 'webhook-signature', 'v1,%%%%'), 401],
		[
			'unknown signature version',
			withHeader(good(), 'webhook-signature', signature(good()).replace('v1,', 'v9,')),
			401,
		],
		['timestamp that is not a number', withHeader(good(), 'webhook-timestamp', 'now'), 401],
		[
			'Stripe-style header instead',
			{
				body: event(),
				headers: { 'content-type': 'application/json', 'stripe-signature': `t=${unixNow()},v1=00` },
			},
			401,
		],
		[
			'invalid JSON sent as application/json (n8n answers)',
			signed(secret, '{"type": "booking.created",'),
			422,
		],
		[
			'unsigned invalid JSON (n8n answers)',
			{ body: '{not json', headers: { 'content-type': 'application/json' } },
			422,
		],
		['signed JSON sent as text/plain', signed(secret, event(), { contentType: 'text/plain' }), 400],
		['signed JSON without a content type', without(signed(secret), 'content-type'), 400],
		[
			'signed form body',
			signed(secret, 'type=booking.created', { contentType: 'application/x-www-form-urlencoded' }),
			400,
		],
		['signed empty body', signed(secret, ''), 400],
	] as Array<[string, Delivery, number]>;
}
