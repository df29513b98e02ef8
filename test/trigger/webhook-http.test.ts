import { startTriggerHarness, type TriggerHarness } from '../harness/webhook';
import { badDeliveries, event, eventId, send, signed, unixNow, whsec } from './deliveries';
import { hmacOf, stripeHeader } from './signers';

const secret = whsec();
const previous = whsec();
const credentials = { webhookSigningSecret: secret, previousWebhookSigningSecret: previous };

// Harnesses started inside a test, closed even when the test fails.
const started: TriggerHarness[] = [];
async function start(...args: Parameters<typeof startTriggerHarness>) {
	const harness = await startTriggerHarness(...args);
	started.push(harness);
	return harness;
}
afterEach(async () => {
	await Promise.all(started.splice(0).map(async (harness) => await harness.close()));
});

describe('webhook() over HTTP, Standard Webhooks (default)', () => {
	let harness: TriggerHarness;
	beforeAll(async () => {
		harness = await startTriggerHarness({ credentials });
	});
	afterAll(async () => await harness.close());

	it('starts no execution for any of 264 generated bad deliveries', async () => {
		const results: Array<[string, number, number]> = [];
		for (let seed = 0; seed < 12; seed++) {
			for (const [label, delivery, expected] of badDeliveries(secret, seed)) {
				const { status } = await send(harness.url, delivery);
				results.push([label, status, expected]);
			}
		}
		expect(results.length).toBeGreaterThanOrEqual(200);
		expect(results.filter(([, status, expected]) => status !== expected)).toEqual([]);
		expect(harness.executions).toHaveLength(0);
		expect(harness.failures).toHaveLength(0);
	});

	it('tells the sender which check failed, and nothing else', async () => {
		const sent = await send(harness.url, signed(whsec()));
		expect(sent).toEqual({
			status: 401,
			body: { message: 'Webhook signature verification failed', reason: 'signature-mismatch' },
		});
	});

	it('starts exactly one execution per good delivery, signed with either secret', async () => {
		const before = harness.executions.length;
		const ids: string[] = [];
		for (let i = 0; i < 40; i++) {
			const id = eventId();
			ids.push(id);
			const sent = await send(
				harness.url,
				signed(i % 4 === 0 ? previous : secret, event('booking.created', { i }), { id }),
			);
			// An empty 200: the webhook description asks n8n for no response data.
			expect(sent).toEqual({ status: 200, body: { text: '' } });
			expect(harness.executions).toHaveLength(before + i + 1);
		}
		expect(harness.executions.slice(before).map(([item]) => item.id)).toEqual(ids);
	});

	it('emits the event, its id, type, timestamp and headers, never the secret', async () => {
		const timestamp = unixNow();
		const body = event('payment.succeeded', { reference: 'pay_1' });
		await send(harness.url, signed(secret, body, { id: 'msg_output', timestamp }));
		const [item] = harness.executions[harness.executions.length - 1];
		expect(item).toMatchObject({
			id: 'msg_output',
			type: 'payment.succeeded',
			timestamp: new Date(timestamp * 1000).toISOString(),
			event: JSON.parse(body),
			headers: { 'webhook-id': 'msg_output', 'content-type': 'application/json' },
		});
		const output = JSON.stringify(harness.executions);
		for (const value of [secret, previous, secret.slice(6), previous.slice(6)]) {
			expect(output).not.toContain(value);
		}
	});

	it('acknowledges a redelivery of the same event id and starts nothing', async () => {
		const id = eventId();
		const body = event();
		expect((await send(harness.url, signed(secret, body, { id }))).status).toBe(200);
		const count = harness.executions.length;
		// The identical bytes again, then a fresh signature and timestamp as a sender retry has.
		const again = await send(harness.url, signed(secret, body, { id, timestamp: unixNow() + 5 }));
		expect(again).toEqual({ status: 200, body: { received: true, ignored: 'duplicate' } });
		expect((await send(harness.url, signed(previous, body, { id }))).status).toBe(200);
		expect(harness.executions).toHaveLength(count);
	});

	it('starts one execution for ten concurrent copies of one delivery', async () => {
		const count = harness.executions.length;
		const delivery = signed(secret);
		const sent = await Promise.all(
			Array.from({ length: 10 }, async () => await send(harness.url, delivery)),
		);
		expect(sent.map(({ status }) => status)).toEqual(Array(10).fill(200));
		expect(harness.executions).toHaveLength(count + 1);
	});
});

describe('webhook() over HTTP, seen ids in workflow static data (n8n regular mode)', () => {
	const seenIn = (harness: TriggerHarness) => {
		const node = harness.staticData()?.['node:Partner Logistics Trigger'] as
			| { seenEventIds?: Array<{ id: string; until: number }> }
			| undefined;
		return (node?.seenEventIds ?? []).map(({ id }) => id);
	};

	it('survive a restart when n8n saved them: a redelivery is still dropped', async () => {
		const first = await start({ credentials });
		const delivery = signed(secret);
		expect((await send(first.url, delivery)).status).toBe(200);
		expect(seenIn(first)).toEqual([delivery.headers['webhook-id']]);
		// A new node id gives the restarted trigger none of the first one's in-process memory.
		const restarted = await start({ credentials, staticData: first.staticData() });
		const again = await send(
			restarted.url,
			signed(secret, delivery.body, { id: delivery.headers['webhook-id'] }),
		);
		expect(again.body).toEqual({ received: true, ignored: 'duplicate' });
		expect(restarted.executions).toHaveLength(0);
	});

	it('are lost, as n8n 2.41 does, when the workflow already had static data (known limit)', async () => {
		const first = await start({ credentials });
		const [one, two] = [signed(secret), signed(secret)];
		await send(first.url, one);
		await send(first.url, two);
		// n8n saved the first id (static data was empty) but not the second one.
		expect(seenIn(first)).toEqual([one.headers['webhook-id']]);
		const restarted = await start({ credentials, staticData: first.staticData() });
		const redelivered = signed(secret, two.body, { id: two.headers['webhook-id'] });
		expect((await send(restarted.url, redelivered)).body).toEqual({ text: '' });
		expect(restarted.executions).toHaveLength(1);
	});

	it('are bounded and unexpired', async () => {
		const harness = await start({ credentials });
		await send(harness.url, signed(secret));
		const node = harness.staticData()?.['node:Partner Logistics Trigger'] as {
			seenEventIds: Array<{ until: number }>;
		};
		expect(node.seenEventIds.length).toBeLessThanOrEqual(1000);
		expect(node.seenEventIds.every(({ until }) => until > Date.now())).toBe(true);
	});
});

describe('webhook() over HTTP, event filter', () => {
	let harness: TriggerHarness;
	beforeAll(async () => {
		harness = await startTriggerHarness({
			credentials,
			parameters: { events: 'booking.*, payment.succeeded' },
		});
	});
	afterAll(async () => await harness.close());

	it('acknowledges and drops events not selected', async () => {
		const dropped = await send(harness.url, signed(secret, event('support_case.created')));
		expect(dropped).toEqual({ status: 200, body: { received: true, ignored: 'event-type' } });
		expect((await send(harness.url, signed(secret, '{"data":{}}'))).status).toBe(200);
		expect(harness.executions).toHaveLength(0);
		await send(harness.url, signed(secret, event('booking.cancelled')));
		await send(harness.url, signed(secret, event('payment.succeeded')));
		expect(harness.executions.map(([item]) => item.type)).toEqual([
			'booking.cancelled',
			'payment.succeeded',
		]);
	});

	it('still refuses a bad signature on an event it would drop', async () => {
		expect((await send(harness.url, signed(whsec(), event('support_case.created')))).status).toBe(
			401,
		);
	});
});

describe('webhook() over HTTP, other schemes', () => {
	const plain = 'plain-shared-secret';
	const body = JSON.stringify({ id: 'evt_77', type: 'booking.created' });

	it('Stripe-style: one execution for a good delivery, none for a bad one or a replay', async () => {
		const harness = await start({
			credentials: { webhookSigningSecret: plain },
			parameters: {
				signatureScheme: 'stripe',
				options: { stripeHeaderName: 'X-Partner-Signature' },
			},
		});
		const deliver = (header: string, raw = body) =>
			send(harness.url, {
				body: raw,
				headers: { 'content-type': 'application/json', 'x-partner-signature': header },
			});
		expect((await deliver(stripeHeader(['other'], body, unixNow()))).status).toBe(401);
		expect((await deliver(stripeHeader([plain], body, unixNow() - 400))).status).toBe(401);
		expect(
			(await deliver(stripeHeader([plain], body, unixNow()), body.replace('77', '78'))).status,
		).toBe(401);
		expect((await deliver(stripeHeader([plain], body, unixNow()))).status).toBe(200);
		expect((await deliver(stripeHeader([plain], body, unixNow()))).body).toEqual({
			received: true,
			ignored: 'duplicate',
		});
		expect(harness.executions).toHaveLength(1);
		expect(harness.executions[0][0]).toMatchObject({ id: 'evt_77', type: 'booking.created' });
	});

	it('HMAC header: one execution for a good delivery, none for a bad one or a replay', async () => {
		const harness = await start({
			credentials: { webhookSigningSecret: plain },
			parameters: {
				signatureScheme: 'hmacHeader',
				options: {
					hmacAlgorithm: 'sha512',
					hmacEncoding: 'base64',
					hmacPrefix: 'sha512=',
					hmacHeaderName: 'X-Hub-Signature',
				},
			},
		});
		const deliver = (header: string | undefined) =>
			send(harness.url, {
				body,
				headers: {
					'content-type': 'application/json',
					...(header ? { 'x-hub-signature': header } : {}),
				},
			});
		expect((await deliver(undefined)).status).toBe(401);
		expect((await deliver(`sha512=${hmacOf('other', body, 'sha512', 'base64')}`)).status).toBe(401);
		expect((await deliver(`sha256=${hmacOf(plain, body, 'sha256', 'base64')}`)).status).toBe(401);
		expect((await deliver(`sha512=${hmacOf(plain, body, 'sha512', 'base64')}`)).status).toBe(200);
		expect((await deliver(`sha512=${hmacOf(plain, body, 'sha512', 'base64')}`)).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});

	it('None: accepts unsigned events, only by explicit choice', async () => {
		const harness = await start({ parameters: { signatureScheme: 'none' } });
		expect(await harness.runWebhookMethod('checkExists')).toBe(true);
		expect(
			(await send(harness.url, { body, headers: { 'content-type': 'application/json' } })).status,
		).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});
});

describe('configuration errors', () => {
	it('a missing secret stops publishing and fails every delivery visibly, never a silent pass', async () => {
		const harness = await start({ credentials: { webhookSigningSecret: '' } });
		await expect(harness.runWebhookMethod('checkExists')).rejects.toThrow(
			/no Webhook Signing Secret/,
		);
		await expect(harness.runWebhookMethod('create')).rejects.toThrow(/no Webhook Signing Secret/);
		const sent = await send(harness.url, signed(whsec()));
		expect(sent.status).toBe(500);
		expect(harness.failures.map((error) => error.message)).toEqual([
			expect.stringMatching(/no Webhook Signing Secret/),
		]);
		expect(harness.executions).toHaveLength(0);
	});

	it('a configured trigger publishes without calling the partner: webhooks are registered by hand', async () => {
		const harness = await start({ credentials });
		expect(await harness.runWebhookMethod('checkExists')).toBe(true);
		expect(await harness.runWebhookMethod('delete')).toBe(true);
	});
});

describe('"Listen for test event" (manual mode)', () => {
	it('verifies the same way but does not deduplicate: each test delivery shows', async () => {
		const harness = await start({ credentials, mode: 'manual' });
		const delivery = signed(secret);
		expect((await send(harness.url, signed(whsec()))).status).toBe(401);
		expect((await send(harness.url, delivery)).status).toBe(200);
		expect((await send(harness.url, delivery)).status).toBe(200);
		expect(harness.executions).toHaveLength(2);
	});
});
