// The trigger's glue around its pure modules, where the end-to-end suite does not reach: the
// event filter, concurrent copies, test events and publishing. webhook() runs in n8n-core's real
// WebhookContext behind the HTTP harness (test/harness/webhook.ts, an imitation of n8n's webhook
// handling). Verification, refusals, redeliveries, payload shapes and the answers n8n itself gives
// are asserted against real n8n in test/e2e/specs/webhook*.e2e.ts; the pure modules by their
// unit tests beside this file.
import { randomBytes } from 'node:crypto';

import { loggedText } from '../../harness/logs';
import { startTriggerHarness, type TriggerHarness } from '../../harness/webhook';
import { newWhsec, standardHeaders } from './signers';

const secret = newWhsec();
const credentials = { webhookSigningSecret: secret };

const event = (type: string) => JSON.stringify({ type, data: { bookingId: 'bk_1' } });

/** POSTs `body` signed by the Standard Webhooks reference library now; the answer. */
async function send(
	url: string,
	body: string,
	options: { signedWith?: string; id?: string; headers?: Record<string, string> } = {},
) {
	const signature = standardHeaders(options.signedWith ?? secret, body, {
		id: options.id ?? `msg_${randomBytes(8).toString('hex')}`,
		timestamp: Math.floor(Date.now() / 1000),
	});
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...signature, ...options.headers },
		body,
	});
	const text = await response.text();
	return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

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

describe('Events and Event Type Header', () => {
	const dropped = { status: 200, body: { received: true, ignored: 'event-type' } };
	let harness: TriggerHarness;
	beforeAll(async () => {
		harness = await startTriggerHarness({
			credentials,
			parameters: {
				events: 'booking.*, payment.succeeded',
				options: { eventTypeHeader: 'x-Partner-Event' },
			},
		});
	});
	afterAll(async () => await harness.close());

	it('acknowledges and drops events not selected, and a payload without a type', async () => {
		expect(await send(harness.url, event('support_case.created'))).toEqual(dropped);
		expect(await send(harness.url, '{"data":{}}')).toEqual(dropped);
		expect(harness.executions).toHaveLength(0);
		await send(harness.url, event('booking.cancelled'));
		await send(harness.url, event('payment.succeeded'));
		expect(harness.executions.map(([item]) => item.type)).toEqual([
			'booking.cancelled',
			'payment.succeeded',
		]);
	});

	it('types a payload without the type field from the header, whatever its case', async () => {
		const before = harness.executions.length;
		const array = '[{"bookingId":"bk_1"}]';
		const typed = (type: string) => ({ headers: { 'X-PARTNER-EVENT': type } });
		expect((await send(harness.url, array, typed('booking.created'))).status).toBe(200);
		expect(await send(harness.url, array, typed('support_case.created'))).toEqual(dropped);
		// The payload's own type field wins over the header.
		const payloadTyped = event('support_case.created');
		expect(await send(harness.url, payloadTyped, typed('booking.created'))).toEqual(dropped);
		expect(harness.executions.slice(before).map(([item]) => [item.type, item.event])).toEqual([
			['booking.created', [{ bookingId: 'bk_1' }]],
		]);
	});

	it('still refuses a bad signature on an event it would drop', async () => {
		const forged = await send(harness.url, event('support_case.created'), {
			signedWith: newWhsec(),
		});
		expect(forged.status).toBe(401);
	});
});

test('ten concurrent copies of one delivery start one execution', async () => {
	const harness = await start({ credentials });
	const id = 'msg_concurrent';
	const body = event('booking.created');
	const sent = await Promise.all(
		Array.from({ length: 10 }, async () => await send(harness.url, body, { id })),
	);
	expect(sent.map(({ status }) => status)).toEqual(Array(10).fill(200));
	expect(harness.executions).toHaveLength(1);
});

test('an option an expression got wrong: a generic 503, nothing runs, the log says why', async () => {
	const harness = await start({
		credentials,
		parameters: { options: { timestampUnit: '={{ "minutes" }}' } },
	});
	expect(await send(harness.url, event('booking.created'))).toEqual({
		status: 503,
		body: { message: 'The receiver of these events is not configured correctly' },
	});
	expect(harness.failures).toHaveLength(0);
	expect(harness.executions).toHaveLength(0);
	expect(await loggedText()).toMatch(/cannot check deliveries: timestampUnit must be one of/);
	await expect(harness.runWebhookMethod('checkExists')).rejects.toThrow(/timestampUnit must be/);
});

describe('"Listen for test event" (manual mode)', () => {
	it('verifies but does not deduplicate: each test delivery shows, an array payload whole', async () => {
		const harness = await start({ credentials, mode: 'manual' });
		for (let i = 0; i < 2; i++) {
			expect((await send(harness.url, '[{"a":1}]', { id: 'msg_test' })).status).toBe(200);
		}
		expect(harness.executions.map(([item]) => item.event)).toEqual([[{ a: 1 }], [{ a: 1 }]]);
		expect(harness.failures).toHaveLength(0);
	});

	it('shows a refused body in the editor: what was wrong and what to check', async () => {
		const harness = await start({ credentials, mode: 'manual' });
		const textPlain = { headers: { 'content-type': 'text/plain' } };
		expect((await send(harness.url, event('booking.created'), textPlain)).status).toBe(500);
		const shown = harness.failures.map((error) => [
			error.message,
			(error as { description?: string }).description,
		]);
		expect(shown).toEqual([
			[
				'Test event refused: the verified body was not sent as JSON',
				'Partner Logistics events are JSON sent with Content-Type: application/json.',
			],
		]);
		expect(harness.executions).toHaveLength(0);
	});

	it('shows a configuration problem in the editor: webhook() throws it, n8n answers 500', async () => {
		const harness = await start({
			credentials: { webhookSigningSecret: 'not base64!' },
			mode: 'manual',
		});
		expect((await send(harness.url, event('booking.created'))).status).toBe(500);
		expect(harness.failures.map((error) => error.message)).toEqual([
			expect.stringMatching(/Webhook Signing Secret is not a Standard Webhooks secret/),
		]);
		expect(harness.executions).toHaveLength(0);
	});
});

describe('publishing (webhookMethods): webhooks are registered by hand in the partner portal', () => {
	it('publishes a configured trigger without calling the partner; delete removes nothing', async () => {
		const harness = await start({ credentials });
		expect(await harness.runWebhookMethod('checkExists')).toBe(true);
		expect(await harness.runWebhookMethod('create')).toBe(true);
		expect(await harness.runWebhookMethod('delete')).toBe(true);
	});

	it('refuses to publish without a signing secret, saying so', async () => {
		const harness = await start({ credentials: { webhookSigningSecret: '' } });
		for (const method of ['checkExists', 'create'] as const) {
			await expect(harness.runWebhookMethod(method)).rejects.toThrow(/no Webhook Signing Secret/);
		}
	});

	it('None: publishes without a secret and runs unsigned events, only by explicit choice', async () => {
		const harness = await start({ parameters: { signatureScheme: 'none' } });
		expect(await harness.runWebhookMethod('checkExists')).toBe(true);
		const unsigned = await fetch(harness.url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: event('booking.created'),
		});
		expect(unsigned.status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});
});
