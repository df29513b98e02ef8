// The sandbox's webhook emitter as the sender: a Standard Webhooks implementation written apart
// from the package, posting real HTTP to the trigger behind n8n's webhook plumbing.
import { generateWebhookSecret, startSandbox, type Sandbox, type WebhookMode } from '../sandbox';
import { startTriggerHarness, type TriggerHarness } from '../harness/webhook';

const secret = generateWebhookSecret();
const previous = generateWebhookSecret();

let sandbox: Sandbox;
let harness: TriggerHarness;

beforeAll(async () => {
	sandbox = await startSandbox();
	harness = await startTriggerHarness({
		credentials: { webhookSigningSecret: secret, previousWebhookSigningSecret: previous },
	});
});
afterAll(async () => {
	await harness?.close();
	await sandbox?.close();
});

const emit = async (mode: WebhookMode, extra: { secret?: string; contentType?: string } = {}) =>
	await sandbox.admin.sendWebhook({
		url: harness.url,
		secret: extra.secret ?? secret,
		type: 'booking.created',
		data: { bookingId: 'bk_42' },
		mode,
		contentType: extra.contentType,
	});

const refusedModes: Array<[WebhookMode, number, string?]> = [
	['bad-signature', 401],
	['wrong-secret', 401],
	['stale-timestamp', 401],
	['future-timestamp', 401],
	['missing-headers', 401],
	['tampered-body', 401],
	// n8n itself answers 422 to invalid JSON declared as application/json.
	['not-json', 422],
	// Signed and verified, but not JSON: the trigger refuses it.
	['not-json', 400, 'text/plain'],
];

describe('deliveries from the sandbox emitter', () => {
	it('starts no execution for 240 bad deliveries, each answered as documented', async () => {
		const wrong: unknown[] = [];
		for (let round = 0; round < 30; round++) {
			for (const [mode, expected, contentType] of refusedModes) {
				const sent = await emit(mode, { contentType });
				if (sent.status !== expected) wrong.push({ mode, contentType, status: sent.status });
			}
		}
		expect(wrong).toEqual([]);
		expect(harness.executions).toHaveLength(0);
	});

	it('starts exactly one execution per valid delivery, with either secret', async () => {
		for (let i = 0; i < 30; i++) {
			const sent = await emit('valid', { secret: i % 3 === 0 ? previous : secret });
			expect(sent.status).toBe(200);
			expect(harness.executions).toHaveLength(i + 1);
			expect(harness.executions[i][0]).toMatchObject({
				id: sent.id,
				type: 'booking.created',
				timestamp: new Date(sent.timestamp * 1000).toISOString(),
				event: JSON.parse(sent.signedBody),
			});
		}
	});

	it('acknowledges a replay of the last valid delivery without a second execution', async () => {
		const count = harness.executions.length;
		const sent = await emit('replay');
		expect(sent).toMatchObject({ status: 200, body: { received: true, ignored: 'duplicate' } });
		expect(harness.executions).toHaveLength(count);
	});
});
