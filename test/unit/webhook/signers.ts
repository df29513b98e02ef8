// Senders written for the tests only, sharing no code with the package: node:crypto directly,
// and the Standard Webhooks reference library for the default scheme.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const nowSeconds = (offsetSeconds = 0) => Math.floor(NOW / 1000) + offsetSeconds;

export const newWhsec = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Standard Webhooks headers as the reference library signs them. */
export function standardHeaders(
	secret: string,
	body: string | Buffer,
	options: { id?: string; timestamp?: number; raw?: boolean } = {},
) {
	const id = options.id ?? `msg_${randomBytes(8).toString('hex')}`;
	const timestamp = options.timestamp ?? nowSeconds();
	const webhook = options.raw ? new Webhook(secret, { format: 'raw' }) : new Webhook(secret);
	return {
		'webhook-id': id,
		'webhook-timestamp': String(timestamp),
		'webhook-signature': webhook.sign(id, new Date(timestamp * 1000), body),
	};
}

/** Stripe's scheme: t=<seconds>,v1=<hex HMAC-SHA256 of "t.body"> with the secret as UTF-8. */
export function stripeHeader(secrets: string[], body: string, timestamp = nowSeconds()) {
	const v1 = secrets.map(
		(secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
	);
	return [`t=${timestamp}`, ...v1].join(',');
}

export function hmacOf(
	secret: string,
	body: string | Buffer,
	algorithm: 'sha256' | 'sha512' = 'sha256',
	encoding: 'hex' | 'base64' = 'hex',
) {
	return createHmac(algorithm, secret).update(body).digest(encoding);
}
