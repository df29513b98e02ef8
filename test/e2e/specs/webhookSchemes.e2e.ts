import { createHmac, randomBytes } from 'node:crypto';

import { TRIGGERS, triggerUrl, type TriggerScheme } from '../lib/fixtures';
import { sleep, waitFor } from '../lib/http';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// The trigger's Stripe-style and HMAC-header schemes in active workflows. The sandbox emitter
// signs Standard Webhooks only, so deliveries are signed here, the way a sender would: both
// schemes key the HMAC with the secret's text, whsec_ prefix included.
const suite = loadSuite();

const hmacHex = (secret: string, data: string) =>
	createHmac('sha256', secret).update(data).digest('hex');
const unixSeconds = () => Math.floor(Date.now() / 1000);

/** How each workflow's trigger expects a delivery to be signed (see its fixture's options). */
const signers: Record<Exclude<TriggerScheme, 'standardWebhooks'>, Signer> = {
	// Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">.
	stripe: (secret, body, t = unixSeconds()) => ({
		'stripe-signature': `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`,
	}),
	// The workflow's options: header X-Partner-Signature, prefix sha256=, SHA-256, hex.
	hmacHeader: (secret, body) => ({ 'x-partner-signature': `sha256=${hmacHex(secret, body)}` }),
};
type Signer = (secret: string, body: string, timestamp?: number) => Record<string, string>;

function eventBody(scheme: string) {
	return JSON.stringify({
		id: `evt_${scheme}_${randomBytes(6).toString('hex')}`,
		type: 'booking.created',
		createdAt: new Date().toISOString(),
		data: { bookingId: `bk_e2e_${scheme}`, status: 'CONFIRMED' },
	});
}

describe.each(Object.keys(signers) as Array<keyof typeof signers>)(
	'Partner Logistics Trigger, %s scheme, in an active workflow',
	(scheme) => {
		const url = triggerUrl(suite.n8nBaseUrl, scheme);
		const sign = signers[scheme];
		const executions = () => suite.client.executions(TRIGGERS[scheme].workflowId);
		/** POSTs exactly these bytes, as signed. */
		const deliver = async (body: string, headers: Record<string, string>) => {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body,
				signal: AbortSignal.timeout(30_000),
			});
			const text = await response.text();
			return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
		};

		beforeAll(async () => {
			// Published webhooks register just after readiness: wait until the URL stops answering 404.
			await waitFor('the production webhook to register', async () => {
				const response = await fetch(url, { method: 'POST', body: '' });
				return response.status === 404 ? undefined : true;
			});
		});

		const valid = eventBody(scheme);
		let signed: Record<string, string>;

		it('refuses a delivery signed with another secret: 401, not saying which check failed', async () => {
			const forged = sign(`whsec_${randomBytes(24).toString('base64')}`, valid);
			const response = await deliver(valid, forged);
			expect(response).toEqual({
				status: 401,
				body: { message: 'Webhook signature verification failed' },
			});
		});

		it('refuses a body changed after signing: 401', async () => {
			const tampered = valid.replace('CONFIRMED', 'CANCELLED');
			const response = await deliver(tampered, sign(suite.signingSecret, valid));
			expect(response.status).toBe(401);
		});

		if (scheme === 'stripe') {
			it('refuses a correctly signed delivery with a timestamp 10 minutes old: 401', async () => {
				const stale = sign(suite.signingSecret, valid, unixSeconds() - 600);
				const response = await deliver(valid, stale);
				expect(response).toEqual({
					status: 401,
					body: { message: 'Webhook signature verification failed' },
				});
			});
		}

		it('accepts a delivery signed with the signing secret: 200', async () => {
			signed = sign(suite.signingSecret, valid);
			const response = await deliver(valid, signed);
			expect(response.status).toBe(200);
		});

		it('acknowledges the same delivery again without running (event id seen)', async () => {
			const response = await deliver(valid, signed);
			expect(response.status).toBe(200);
			expect(response.body).toMatchObject({ ignored: 'duplicate' });
		});

		it('started exactly one execution, with the event as its output', async () => {
			await waitFor('the execution of the valid delivery', async () => {
				const list = await executions();
				return list.length >= 1 && list.every((e) => e.stoppedAt) ? list : undefined;
			});
			// Long enough for an execution of a refused or repeated delivery to show up.
			await sleep(1500);
			const list: Execution[] = await executions();
			expect(list).toHaveLength(1);
			expect(list[0].status).toBe('success');
			const event = JSON.parse(valid) as { id: string; type: string };
			const stripeTime = Number(/t=(\d+)/.exec(signed['stripe-signature'] ?? '')?.[1]);
			expect(nodeOutput(list[0], 'Partner Logistics Trigger')).toEqual([
				expect.objectContaining({
					id: event.id,
					type: event.type,
					timestamp: scheme === 'stripe' ? new Date(stripeTime * 1000).toISOString() : null,
					event,
				}),
			]);
		});
	},
);
