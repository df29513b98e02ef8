// Webhook emitter signing with the Standard Webhooks scheme (node:crypto only), plus the broken
// deliveries a receiver must refuse.
import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import { ApiError } from './errors';

export const WEBHOOK_MODES = [
	'valid',
	'bad-signature',
	'wrong-secret',
	'stale-timestamp',
	'future-timestamp',
	'replay',
	'missing-headers',
	'tampered-body',
	'not-json',
] as const;

export type WebhookMode = (typeof WEBHOOK_MODES)[number];

export interface SendWebhookOptions {
	url: string;
	/** whsec_<base64>; the key is the base64-decoded part after the prefix. */
	secret: string;
	type: string;
	data?: unknown;
	/** Default 'valid'. */
	mode?: WebhookMode;
	/** webhook-id and event id; default random msg_... */
	id?: string;
	/** Unix seconds; default now (stale/future modes shift it by 10 minutes). */
	timestamp?: number;
	/** Default application/json, in every mode. */
	contentType?: string;
	/** Raw body to sign and send instead of the generated event. */
	body?: string;
}

export interface SendWebhookResult {
	/** The receiver's answer; body is parsed JSON when it parses, else text. */
	status: number;
	body: unknown;
	id: string;
	timestamp: number;
	/** Headers sent. */
	headers: Record<string, string>;
	/** Exact bytes sent (differs from signedBody only in tampered-body mode). */
	sentBody: string;
	signedBody: string;
}

interface Delivery {
	id: string;
	timestamp: number;
	headers: Record<string, string>;
	sentBody: string;
	signedBody: string;
}

const SKEW_SECONDS = 600;
const TIMEOUT_MS = 10_000;

export function decodeWebhookSecret(secret: string): Buffer {
	return Buffer.from(
		secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret,
		'base64',
	);
}

export function generateWebhookSecret(): string {
	return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The webhook-signature value: v1,<base64 HMAC-SHA256 of "id.timestamp.body">. */
export function signStandardWebhook(
	secret: string,
	id: string,
	timestamp: number,
	body: string,
): string {
	const mac = createHmac('sha256', decodeWebhookSecret(secret))
		.update(`${id}.${timestamp}.${body}`)
		.digest('base64');
	return `v1,${mac}`;
}

/** One byte changed, JSON kept valid: the last digit moves by one. */
function tamper(body: string): string {
	const i = body.search(/\d(?!.*\d)/s);
	if (i < 0) return `${body} `;
	return body.slice(0, i) + String((Number(body[i]) + 1) % 10) + body.slice(i + 1);
}

function buildDelivery(o: SendWebhookOptions, mode: WebhookMode): Delivery {
	const id = o.id ?? `msg_${randomBytes(12).toString('hex')}`;
	const now = Math.floor(Date.now() / 1000);
	const shift =
		mode === 'stale-timestamp' ? -SKEW_SECONDS : mode === 'future-timestamp' ? SKEW_SECONDS : 0;
	const timestamp = o.timestamp ?? now + shift;
	const signedBody =
		o.body ??
		(mode === 'not-json'
			? `event ${id} of type ${o.type} (this body is not JSON)`
			: JSON.stringify({
					id,
					type: o.type,
					createdAt: new Date(timestamp * 1000).toISOString(),
					data: o.data ?? {},
				}));
	const signingSecret = mode === 'wrong-secret' ? generateWebhookSecret() : o.secret;
	const signature =
		mode === 'bad-signature'
			? `v1,${randomBytes(32).toString('base64')}`
			: signStandardWebhook(signingSecret, id, timestamp, signedBody);
	const headers: Record<string, string> = {
		'content-type': o.contentType ?? 'application/json',
		'user-agent': 'partner-logistics-sandbox-webhooks/1',
	};
	if (mode !== 'missing-headers') {
		headers['webhook-id'] = id;
		headers['webhook-timestamp'] = String(timestamp);
		headers['webhook-signature'] = signature;
	}
	const sentBody = mode === 'tampered-body' ? tamper(signedBody) : signedBody;
	return { id, timestamp, headers, sentBody, signedBody };
}

function post(url: string, headers: Record<string, string>, body: string) {
	const target = new URL(url);
	const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
	return new Promise<{ status: number; text: string }>((resolve, reject) => {
		// agent: false, so no keep-alive socket outlives the delivery.
		const req = send(
			target,
			{
				method: 'POST',
				agent: false,
				headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
				);
				res.on('error', reject);
			},
		);
		req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`webhook to ${url} timed out`)));
		req.on('error', reject);
		req.end(body);
	});
}

function parseMaybeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

export class WebhookEmitter {
	private last?: Delivery;

	async send(options: SendWebhookOptions): Promise<SendWebhookResult> {
		const mode = options.mode ?? 'valid';
		if (!WEBHOOK_MODES.includes(mode)) {
			throw new ApiError(
				400,
				'VALIDATION_ERROR',
				`mode must be one of ${WEBHOOK_MODES.join(', ')}.`,
				{
					field: 'mode',
				},
			);
		}
		if (!options.url || !options.secret || (!options.type && options.body === undefined)) {
			throw new ApiError(400, 'VALIDATION_ERROR', 'url, secret and type (or body) are required.');
		}
		let delivery: Delivery;
		if (mode === 'replay') {
			if (!this.last) throw new ApiError(409, 'NOTHING_TO_REPLAY', 'No webhook was sent yet.');
			delivery = this.last;
		} else {
			delivery = buildDelivery(options, mode);
			this.last = delivery;
		}
		const answer = await post(options.url, delivery.headers, delivery.sentBody);
		return {
			status: answer.status,
			body: parseMaybeJson(answer.text),
			id: delivery.id,
			timestamp: delivery.timestamp,
			headers: { ...delivery.headers },
			sentBody: delivery.sentBody,
			signedBody: delivery.signedBody,
		};
	}

	forget(): void {
		this.last = undefined;
	}
}
