import { loggedText } from '../harness/logs';
import { startTriggerHarness, type TriggerHarness } from '../harness/webhook';
import { badDeliveries, event, eventId, send, signed, unixNow, whsec } from './deliveries';
import { hmacOf, stripeHeader } from './signers';

const secret = whsec();
const previous = whsec();
const credentials = { webhookSigningSecret: secret, previousWebhookSigningSecret: previous };

/** n8n's JSON log lines: level and message. */
const logLines = (log: string) =>
	log
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			const { level, message } = JSON.parse(line) as { level: string; message: string };
			return { level, message };
		});

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

	it('starts no execution for any of 252 generated bad deliveries', async () => {
		const results: Array<[string, number, number]> = [];
		for (let seed = 0; seed < 12; seed++) {
			for (const [label, delivery, expected] of badDeliveries(secret, seed)) {
				const { status } = await send(harness.url, delivery);
				results.push([label, status, expected]);
			}
		}
		expect(results).toHaveLength(252);
		expect(results.filter(([, status, expected]) => status !== expected)).toEqual([]);
		expect(harness.executions).toHaveLength(0);
		expect(harness.failures).toHaveLength(0);
	});

	it('tells the sender only that verification failed; the n8n log says why', async () => {
		const logged = (await loggedText()).length;
		const forged = signed(whsec(), event('booking.created', { marker: 'forged-body-marker' }));
		const stale = signed(secret, event(), { timestamp: unixNow() - 400 });
		expect(await send(harness.url, forged)).toEqual({
			status: 401,
			body: { message: 'Webhook signature verification failed' },
		});
		expect(await send(harness.url, stale)).toEqual({
			status: 401,
			body: { message: 'Webhook signature verification failed' },
		});
		const log = (await loggedText()).slice(logged);
		const refusals = logLines(log).filter(({ message }) => /refused a delivery/.test(message));
		expect(refusals).toEqual([
			{
				level: 'info',
				message:
					'Partner Logistics Trigger "Partner Logistics Trigger" in workflow wf-trigger-harness refused a delivery with 401: the signature does not match the signing secret (signature-mismatch)',
			},
			{
				level: 'info',
				message: expect.stringMatching(
					/refused a delivery with 401: the signed timestamp is older than the timestamp tolerance \(stale-timestamp\)$/,
				),
			},
		]);
		for (const value of [
			secret,
			secret.slice(6),
			previous.slice(6),
			forged.headers['webhook-signature'],
			stale.headers['webhook-signature'].slice(3),
			'forged-body-marker',
		]) {
			expect(log).not.toContain(value);
		}
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

	it.each([
		['an array', '[{"id":"evt_a","type":"booking.created"},{"id":"evt_b"}]'],
		['a string', '"hello"'],
		['a number', '42'],
		['false', 'false'],
		['null', 'null'],
	])('starts the workflow with %s payload kept whole, once per event id', async (_label, body) => {
		const before = harness.executions.length;
		const id = eventId();
		expect(await send(harness.url, signed(secret, body, { id }))).toEqual({
			status: 200,
			body: { text: '' },
		});
		expect(harness.executions).toHaveLength(before + 1);
		expect(harness.executions[before]).toEqual([
			{
				id,
				type: null,
				timestamp: expect.any(String),
				event: JSON.parse(body),
				headers: expect.objectContaining({ 'webhook-id': id }),
			},
		]);
		// A sender's retry, re-signed later: acknowledged, nothing runs.
		const retry = await send(harness.url, signed(secret, body, { id, timestamp: unixNow() + 5 }));
		expect(retry).toEqual({ status: 200, body: { received: true, ignored: 'duplicate' } });
		expect(harness.executions).toHaveLength(before + 1);
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

describe('webhook() over HTTP, redeliveries after the timestamp tolerance', () => {
	// A 1 s tolerance stands in for the default 300 s: a sender's retry hours later is the same case.
	const waitPastTolerance = () => new Promise((resolve) => setTimeout(resolve, 2100));

	it('acknowledge a retry re-signed with a fresh timestamp, and start nothing', async () => {
		const harness = await start({ credentials, parameters: { options: { toleranceSeconds: 1 } } });
		const first = signed(secret);
		const id = first.headers['webhook-id'];
		expect((await send(harness.url, first)).status).toBe(200);
		await waitPastTolerance();
		// The original copy is now stale, and refused for that.
		expect((await send(harness.url, first)).status).toBe(401);
		const retry = await send(harness.url, signed(secret, first.body, { id }));
		expect(retry).toEqual({ status: 200, body: { received: true, ignored: 'duplicate' } });
		expect(harness.executions).toHaveLength(1);
	});

	it('for as long as Remember Event IDs For (Hours) says: 0 keeps them for the tolerance only', async () => {
		const harness = await start({
			credentials,
			parameters: { options: { toleranceSeconds: 1, rememberEventIdsHours: 0 } },
		});
		const first = signed(secret);
		const id = first.headers['webhook-id'];
		expect((await send(harness.url, first)).status).toBe(200);
		expect((await send(harness.url, signed(secret, first.body, { id }))).body).toEqual({
			received: true,
			ignored: 'duplicate',
		});
		await waitPastTolerance();
		expect((await send(harness.url, signed(secret, first.body, { id }))).body).toEqual({
			text: '',
		});
		expect(harness.executions).toHaveLength(2);
	});
});

describe('webhook() over HTTP, secrets as the reference library reads them', () => {
	it('verifies deliveries signed with the whsec_ secret when the credential holds it unprefixed', async () => {
		const harness = await start({ credentials: { webhookSigningSecret: secret.slice(6) } });
		expect(await harness.runWebhookMethod('checkExists')).toBe(true);
		expect((await send(harness.url, signed(secret))).status).toBe(200);
		expect((await send(harness.url, signed(secret.slice(6)))).status).toBe(200);
		expect((await send(harness.url, signed(whsec()))).status).toBe(401);
		expect(harness.executions).toHaveLength(2);
	});
});

describe('webhook() over HTTP, the credential read per delivery', () => {
	it('is read once, not per delivery, and read again when a signature stops matching', async () => {
		const harness = await start({ credentials });
		for (let i = 0; i < 10; i++) expect((await send(harness.url, signed(secret))).status).toBe(200);
		expect(harness.credentialReads()).toBe(1);
		// A rotation: the user saves a new secret. Until the cached one is 5 s old a delivery signed
		// with it is refused (the sender retries); after that the mismatch reads the credential again.
		const rotated = whsec();
		harness.setCredentials({ webhookSigningSecret: rotated, previousWebhookSigningSecret: secret });
		expect((await send(harness.url, signed(rotated))).status).toBe(401);
		await new Promise((resolve) => setTimeout(resolve, 5100));
		expect((await send(harness.url, signed(rotated))).status).toBe(200);
		expect((await send(harness.url, signed(secret))).status).toBe(200);
		expect(harness.credentialReads()).toBe(2);
		expect(harness.executions).toHaveLength(12);
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

describe('webhook() over HTTP, Event Type Header', () => {
	let harness: TriggerHarness;
	beforeAll(async () => {
		harness = await startTriggerHarness({
			credentials,
			parameters: { events: 'booking.*', options: { eventTypeHeader: 'x-Partner-Event' } },
		});
	});
	afterAll(async () => await harness.close());

	const withType = (delivery: ReturnType<typeof signed>, type: string) => ({
		...delivery,
		headers: { ...delivery.headers, 'X-PARTNER-EVENT': type },
	});

	it('types a payload without the type field from the header, whatever its case, for Events to filter', async () => {
		const array = '[{"bookingId":"bk_1"}]';
		expect(
			(await send(harness.url, withType(signed(secret, array), 'booking.created'))).status,
		).toBe(200);
		const dropped = await send(harness.url, withType(signed(secret, array), 'payment.succeeded'));
		expect(dropped).toEqual({ status: 200, body: { received: true, ignored: 'event-type' } });
		// No header: no type, and Events selects types, so it is dropped too.
		expect((await send(harness.url, signed(secret, array))).body).toEqual({
			received: true,
			ignored: 'event-type',
		});
		expect(harness.executions.map(([item]) => [item.type, item.event])).toEqual([
			['booking.created', [{ bookingId: 'bk_1' }]],
		]);
	});

	it("is ignored when the payload has the type field: the payload's type is the event's", async () => {
		const before = harness.executions.length;
		const dropped = await send(
			harness.url,
			withType(signed(secret, event('payment.succeeded')), 'booking.created'),
		);
		expect(dropped).toEqual({ status: 200, body: { received: true, ignored: 'event-type' } });
		await send(harness.url, withType(signed(secret, event('booking.cancelled')), 'payment.failed'));
		expect(harness.executions.slice(before).map(([item]) => item.type)).toEqual([
			'booking.cancelled',
		]);
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

	it('HMAC header: an array payload runs once, its redelivery is known by the body digest', async () => {
		const harness = await start({
			credentials: { webhookSigningSecret: plain },
			parameters: { signatureScheme: 'hmacHeader' },
		});
		const deliver = (raw: string) =>
			send(harness.url, {
				body: raw,
				headers: { 'content-type': 'application/json', 'x-signature': hmacOf(plain, raw) },
			});
		const array = '[{"id":"evt_1","type":"booking.created"},{"id":"evt_2"}]';
		expect((await deliver(array)).status).toBe(200);
		expect((await deliver(array)).body).toEqual({ received: true, ignored: 'duplicate' });
		// Another array is another event.
		expect((await deliver('[{"id":"evt_3"}]')).status).toBe(200);
		expect((await deliver('"hello"')).status).toBe(200);
		expect((await deliver('"hello"')).body).toEqual({ received: true, ignored: 'duplicate' });
		expect(harness.executions.map(([item]) => [item.id, item.type, item.event])).toEqual([
			[null, null, JSON.parse(array)],
			[null, null, [{ id: 'evt_3' }]],
			[null, null, 'hello'],
		]);
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
	it('a missing secret stops publishing, and a delivery gets a clean 503: nothing runs, the log says why', async () => {
		const harness = await start({ credentials: { webhookSigningSecret: '' } });
		await expect(harness.runWebhookMethod('checkExists')).rejects.toThrow(
			/no Webhook Signing Secret/,
		);
		await expect(harness.runWebhookMethod('create')).rejects.toThrow(/no Webhook Signing Secret/);
		const sent = await send(harness.url, signed(whsec()));
		expect(sent).toEqual({
			status: 503,
			body: { message: 'The receiver of these events is not configured correctly' },
		});
		expect(harness.failures).toHaveLength(0);
		expect(harness.executions).toHaveLength(0);
		expect(logLines(await loggedText())).toContainEqual({
			level: 'warn',
			message: expect.stringMatching(
				/cannot check deliveries: The Partner Logistics API credential has no Webhook Signing Secret/,
			),
		});
	});

	it('a credential fixed after a 503 is read again within seconds, not after a minute', async () => {
		const harness = await start({ credentials: { webhookSigningSecret: 'not base64!' } });
		expect((await send(harness.url, signed(secret))).status).toBe(503);
		expect((await send(harness.url, signed(secret))).status).toBe(503);
		expect(harness.credentialReads()).toBe(1);
		harness.setCredentials(credentials);
		await new Promise((resolve) => setTimeout(resolve, 5100));
		expect((await send(harness.url, signed(secret))).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});

	it('an option an expression got wrong answers the same way', async () => {
		const harness = await start({
			credentials,
			parameters: { options: { timestampUnit: '={{ "minutes" }}' } },
		});
		const sent = await send(harness.url, signed(secret));
		expect(sent.status).toBe(503);
		expect(JSON.stringify(sent.body)).not.toMatch(/timestampUnit|minutes/);
		expect(harness.failures).toHaveLength(0);
		expect(harness.executions).toHaveLength(0);
		expect(await loggedText()).toMatch(/cannot check deliveries: timestampUnit must be one of/);
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
		expect((await send(harness.url, delivery)).status).toBe(200);
		expect((await send(harness.url, delivery)).status).toBe(200);
		expect(harness.executions).toHaveLength(2);
	});

	it('shows a refusal in the editor: webhook() throws the reason, n8n answers its generic 500', async () => {
		const harness = await start({ credentials, mode: 'manual' });
		const forged = await send(harness.url, signed(whsec()));
		expect(forged).toEqual({
			status: 500,
			body: { code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' },
		});
		const textPlain = signed(secret, event(), { contentType: 'text/plain' });
		expect((await send(harness.url, textPlain)).status).toBe(500);
		expect(
			harness.failures.map((error) => [
				error.message,
				(error as { description?: string }).description,
			]),
		).toEqual([
			[
				'Test event refused: the signature does not match the signing secret',
				expect.stringMatching(/partner portal/),
			],
			[
				'Test event refused: the verified body was not sent as JSON',
				'Partner Logistics events are JSON sent with Content-Type: application/json.',
			],
		]);
		expect(harness.executions).toHaveLength(0);
	});

	it('shows a test event whose payload is an array, whole', async () => {
		const harness = await start({ credentials, mode: 'manual' });
		const delivery = signed(secret, '[{"a":1}]');
		expect((await send(harness.url, delivery)).status).toBe(200);
		expect((await send(harness.url, delivery)).status).toBe(200);
		expect(harness.executions.map(([item]) => item.event)).toEqual([[{ a: 1 }], [{ a: 1 }]]);
		expect(harness.failures).toHaveLength(0);
	});

	it('shows a configuration problem in the editor too', async () => {
		const harness = await start({
			credentials: { webhookSigningSecret: 'not base64!' },
			mode: 'manual',
		});
		expect((await send(harness.url, signed(secret))).status).toBe(500);
		expect(harness.failures.map((error) => error.message)).toEqual([
			expect.stringMatching(/Webhook Signing Secret is not a Standard Webhooks secret/),
		]);
	});
});
