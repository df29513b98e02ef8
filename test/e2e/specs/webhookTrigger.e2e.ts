import { sleep, waitFor } from '../lib/http';
import { triggerUrl, WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import type { SendWebhookOptions, SendWebhookResult } from '../../sandbox';
import { loadSuite } from '../lib/suiteContext';

// The active trigger workflow receiving deliveries from the sandbox's Standard Webhooks emitter.
const suite = loadSuite();
const url = triggerUrl(suite.n8nBaseUrl);

const send = (options: Partial<SendWebhookOptions>) =>
	suite.admin.sendWebhook({
		url,
		secret: suite.signingSecret,
		type: 'booking.created',
		...options,
	});

const executions = () => suite.client.executions(WORKFLOW_IDS.webhookEvents);

/** Waits for `count` executions, then a little longer to catch any that should not exist. */
async function settledExecutions(count: number): Promise<Execution[]> {
	await waitFor(`${count} trigger executions`, async () => {
		const list = await executions();
		return list.length >= count && list.every((e) => e.stoppedAt) ? list : undefined;
	});
	await sleep(1500);
	return executions();
}

describe('Partner Logistics Trigger in an active workflow', () => {
	const accepted: SendWebhookResult[] = [];

	beforeAll(async () => {
		// Published webhooks register just after readiness: wait until the URL stops answering 404.
		await waitFor('the production webhook to register', async () => {
			const response = await fetch(url, { method: 'POST', body: '' });
			return response.status === 404 ? undefined : true;
		});
		// That probe had no signature: it was refused and started nothing.
		expect(await executions()).toHaveLength(0);
	});

	it('starts one execution per valid event, with the event as output', async () => {
		accepted.push(
			await send({ type: 'booking.created', data: { bookingId: 'bk_e2e_1', status: 'CONFIRMED' } }),
			await send({ type: 'payment.succeeded', data: { reference: 'pay_e2e_1', amount: 3851 } }),
		);
		expect(accepted.map((result) => result.status)).toEqual([200, 200]);

		const list = await settledExecutions(2);
		expect(list).toHaveLength(2);
		const outputs = list
			.map((execution) => {
				expect(execution.status).toBe('success');
				const items = nodeOutput(execution, 'Partner Logistics Trigger');
				expect(items).toHaveLength(1);
				return items[0];
			})
			.sort((a, b) => String(a.type).localeCompare(String(b.type)));
		expect(outputs).toEqual([
			expect.objectContaining({
				id: accepted[0].id,
				type: 'booking.created',
				event: JSON.parse(accepted[0].sentBody),
			}),
			expect.objectContaining({
				id: accepted[1].id,
				type: 'payment.succeeded',
				event: JSON.parse(accepted[1].sentBody),
			}),
		]);
		const output = JSON.stringify(outputs);
		for (const secret of [suite.signingSecret, suite.signingSecret.replace(/^whsec_/, '')]) {
			expect(output).not.toContain(secret);
		}
	});

	it('acknowledges a replayed delivery (same webhook-id) without a second execution', async () => {
		const replay = await send({ mode: 'replay' });
		expect(replay.id).toBe(accepted[1].id);
		expect(replay.status).toBe(200);
		expect(replay.body).toMatchObject({ ignored: 'duplicate' });
	});

	it.each<[string, Partial<SendWebhookOptions>, number]>([
		['a forged signature', { mode: 'bad-signature' }, 401],
		['a signature made with another secret', { mode: 'wrong-secret' }, 401],
		['a stale timestamp', { mode: 'stale-timestamp' }, 401],
		['a timestamp too far ahead', { mode: 'future-timestamp' }, 401],
		['no signature headers', { mode: 'missing-headers' }, 401],
		['a body changed after signing', { mode: 'tampered-body' }, 401],
		['a body that is not JSON (n8n answers itself)', { mode: 'not-json' }, 422],
		['a signed body sent as text/plain', { mode: 'not-json', contentType: 'text/plain' }, 400],
	])('refuses %s (emitter %j) with %d', async (_what, options, status) => {
		const result = await send(options);
		expect(result.status).toBe(status);
		// Which check failed goes to n8n's log, never to the sender.
		if (status === 401) {
			expect(result.body).toEqual({ message: 'Webhook signature verification failed' });
		}
		if (status === 400) {
			expect(result.body).toEqual({ message: 'Expected JSON sent as application/json' });
		}
	});

	it('started no execution for any refused or replayed delivery', async () => {
		const list = await settledExecutions(2);
		expect(list).toHaveLength(2);
	});
});
