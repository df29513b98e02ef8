import { requestJson, waitFor } from '../../e2e/lib/http';
import { nodeOutput } from '../../e2e/lib/n8nApi';
import type { WebhookMode } from '../../sandbox';
import { EVENT_SETUPS, eventUrl, loadQueueSuite } from '../setup/context';
import { ranExecution, settledExecutions } from '../setup/executions';

// The trigger's production URL on both webhook processes; forged deliveries start nothing.
const suite = loadQueueSuite();
const [webhookA, webhookB] = suite.webhookProcesses;
const plain = EVENT_SETUPS.plain.workflowId;

/** Executions of every event workflow of the suite, by workflow. */
async function countAll(): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const { workflowId } of Object.values(EVENT_SETUPS)) {
		counts[workflowId] = (await settledExecutions(suite.client, workflowId, 0)).length;
	}
	return counts;
}

beforeAll(async () => {
	// Webhook processes pick the active workflows up from the database: wait until each of them
	// knows every trigger (an unsigned probe is then refused with 401 and starts nothing).
	for (const base of suite.webhookProcesses) {
		for (const setup of Object.keys(EVENT_SETUPS) as Array<keyof typeof EVENT_SETUPS>) {
			const status = await waitFor(`${setup} trigger on ${base}`, async () => {
				const probe = await requestJson(eventUrl(base, setup), { body: {} });
				return probe.status === 404 ? undefined : probe.status;
			});
			expect(status).toBe(401);
		}
	}
});

describe('the trigger in queue mode', () => {
	it('answers on both webhook processes; the worker runs each event once', async () => {
		const before = (await settledExecutions(suite.client, plain, 0)).length;
		const sent = [];
		for (const base of [webhookA, webhookB]) {
			sent.push(
				await suite.admin.sendWebhook({
					url: eventUrl(base, 'plain'),
					secret: suite.signingSecret,
					type: 'booking.created',
					data: { bookingId: `bk_from_${base.split(':').pop()}` },
				}),
			);
		}
		expect(sent.map((result) => result.status)).toEqual([200, 200]);
		const executions = (await settledExecutions(suite.client, plain, before + 2)).slice(0, 2);
		expect(executions.map((e) => e.status)).toEqual(['success', 'success']);
		const ids = executions.map((e) => nodeOutput(e, 'Partner Logistics Trigger')[0].id).sort();
		expect(ids).toEqual(sent.map((result) => result.id).sort());
		for (const execution of executions)
			expect(ranExecution(suite.logFiles.worker, execution.id)).toBe(true);
	});

	it('is not served by the main, which takes no production webhooks in this setup', async () => {
		const result = await suite.admin.sendWebhook({
			url: eventUrl(suite.n8nBaseUrl, 'plain'),
			secret: suite.signingSecret,
			type: 'booking.created',
		});
		expect(result.status).toBe(404);
	});

	it.each<WebhookMode>([
		'bad-signature',
		'wrong-secret',
		'stale-timestamp',
		'tampered-body',
		'missing-headers',
	])('refuses a delivery with %s on both processes and starts nothing anywhere', async (mode) => {
		const before = await countAll();
		for (const base of [webhookA, webhookB]) {
			for (const setup of Object.keys(EVENT_SETUPS) as Array<keyof typeof EVENT_SETUPS>) {
				const result = await suite.admin.sendWebhook({
					url: eventUrl(base, setup),
					secret: suite.signingSecret,
					type: 'booking.created',
					mode,
				});
				expect(result.status).toBe(401);
			}
		}
		expect(await countAll()).toEqual(before);
	});
});
