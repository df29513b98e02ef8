import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { sleep, waitFor } from '../lib/http';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { jsonLines } from '../lib/n8nLog';
import { loadSuite } from '../lib/suiteContext';

// What a user of the Partner Logistics Trigger meets over time, in real n8n: a sender retrying
// hours later, a secret pasted without its prefix, a payload that is not an object, a refusal to
// find in the log or the editor, a credential broken after publishing. Each case gets a credential and an active workflow of its
// own, made here through n8n's APIs as the editor would.
const suite = loadSuite();
const TRIGGER = 'Partner Logistics Trigger';

/** A Standard Webhooks secret as the partner portal might show it without its whsec_ prefix. */
const unprefixedSecret = () => randomBytes(24).toString('base64');

function credentialData(webhookSigningSecret: string) {
	return {
		baseUrl: suite.sandbox.url,
		apiKey: suite.sandbox.keys.full,
		webhookSigningSecret,
		previousWebhookSigningSecret: '',
		// n8n's own field on every credential, at its default, as the editor sends it: n8n 1.x's
		// public API refuses a credential without it ("requires property allowedDomains").
		allowedHttpRequestDomains: 'all',
	};
}

async function createCredential(name: string, webhookSigningSecret: string): Promise<string> {
	const created = await suite.client.publicApi<{ id: string }>('POST', '/credentials', {
		name,
		type: 'partnerLogisticsApi',
		data: credentialData(webhookSigningSecret),
	});
	if (created.status !== 200) throw new Error(`create credential: ${created.status}`);
	return created.body.id;
}

/** An active workflow holding only the trigger; returns its id and production and test URLs. */
async function activeTrigger(name: string, credentialId: string, options: object = {}) {
	const webhookId = randomUUID();
	const created = await suite.client.publicApi<{ id: string }>('POST', '/workflows', {
		name,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: randomUUID(),
				name: TRIGGER,
				type: 'n8n-nodes-partner-logistics.partnerLogisticsTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				webhookId,
				parameters: { signatureScheme: 'standardWebhooks', events: '', options },
				credentials: { partnerLogisticsApi: { id: credentialId, name } },
			},
		],
	});
	if (created.status !== 200) throw new Error(`create workflow: ${created.status}`);
	const id = created.body.id;
	await suite.client.activateWorkflow(id);
	const url = `${suite.n8nBaseUrl}/webhook/${webhookId}/partner-logistics`;
	await waitFor('the production webhook to register', async () => {
		const response = await fetch(url, { method: 'POST', body: '' });
		return response.status === 404 ? undefined : true;
	});
	// That unsigned probe was refused; n8n writes its log line a moment later. Waited for here, so
	// a test reading the log from its own start never finds it.
	await waitFor('the refusal of the probe in the n8n log', async () =>
		logSince(0).some(({ message }) => message.includes(`in workflow ${id} refused a delivery`))
			? true
			: undefined,
	);
	return { id, url, testUrl: `${suite.n8nBaseUrl}/webhook-test/${webhookId}/partner-logistics` };
}

/** Every execution of the workflow once they have all ended, and a moment more for stragglers. */
async function settled(workflowId: string, atLeast: number): Promise<Execution[]> {
	await waitFor(`${atLeast} executions of ${workflowId}`, async () => {
		const list = await suite.client.executions(workflowId);
		return list.length >= atLeast && list.every((e) => e.stoppedAt) ? true : undefined;
	});
	await sleep(1500);
	return await suite.client.executions(workflowId);
}

/** n8n's JSON log lines written since `offset`, in bytes (the log holds multi-byte characters). */
function logSince(offset: number): Array<{ level: string; message: string }> {
	const text = readFileSync(join(suite.logDir, 'n8n.log')).subarray(offset).toString('utf8');
	return (jsonLines(text) as Array<{ level: string; message: string }>).map(
		({ level, message }) => ({ level, message }),
	);
}
const logSize = () => statSync(join(suite.logDir, 'n8n.log')).size;

describe('Partner Logistics Trigger: redeliveries and secrets without their prefix', () => {
	const secret = unprefixedSecret();
	let trigger: Awaited<ReturnType<typeof activeTrigger>>;

	beforeAll(async () => {
		const credential = await createCredential('E2E unprefixed secret', secret);
		// A 1 s tolerance stands in for the default 300 s: a retry hours later is the same case.
		trigger = await activeTrigger('E2E redeliveries', credential, { toleranceSeconds: 1 });
	});

	it('verifies a delivery signed with the secret the credential holds without whsec_', async () => {
		const sent = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'booking.created',
			id: 'msg_e2e_redelivered',
		});
		expect(sent.status).toBe(200);
	});

	it('refuses the first copy once stale, and acknowledges a retry re-signed now without running', async () => {
		await sleep(2200);
		const stale = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'booking.created',
			mode: 'replay',
		});
		expect(stale).toMatchObject({ status: 401, id: 'msg_e2e_redelivered' });
		const retry = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'booking.created',
			id: 'msg_e2e_redelivered',
		});
		expect(retry).toMatchObject({ status: 200, body: { received: true, ignored: 'duplicate' } });
	});

	it('started exactly one execution, for the first delivery', async () => {
		const list = await settled(trigger.id, 1);
		expect(list.map((e) => [e.mode, e.status])).toEqual([['webhook', 'success']]);
	});
});

describe('Partner Logistics Trigger: a signed payload that is not a JSON object', () => {
	const secret = unprefixedSecret();
	const array = [
		{ bookingId: 'bk_e2e_array_1', status: 'CONFIRMED' },
		{ bookingId: 'bk_e2e_array_2', status: 'CANCELLED' },
	];
	let trigger: Awaited<ReturnType<typeof activeTrigger>>;
	let first: Awaited<ReturnType<typeof suite.admin.sendWebhook>>;

	beforeAll(async () => {
		const credential = await createCredential('E2E payload shapes', secret);
		trigger = await activeTrigger('E2E payload shapes', credential);
	});

	it('starts exactly one execution for a validly signed array, whose output carries the array whole', async () => {
		// `type` names no event here: the emitter signs and sends `body` as it is.
		first = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'unused',
			body: JSON.stringify(array),
		});
		expect([first.status, first.body]).toEqual([200, '']);
		const list = await settled(trigger.id, 1);
		expect(list.map((e) => [e.mode, e.status])).toEqual([['webhook', 'success']]);
		expect(nodeOutput(list[0], TRIGGER)).toEqual([
			{
				id: first.id,
				type: null,
				timestamp: new Date(first.timestamp * 1000).toISOString(),
				event: array,
				headers: expect.objectContaining({
					'webhook-id': first.id,
					'content-type': 'application/json',
				}),
			},
		]);
	});

	it('acknowledges its redelivery and starts no second execution', async () => {
		const replay = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'unused',
			mode: 'replay',
		});
		expect(replay).toMatchObject({
			status: 200,
			id: first.id,
			sentBody: first.sentBody,
			body: { received: true, ignored: 'duplicate' },
		});
		// settled() waits 1.5 s past the first execution for any that should not exist.
		expect(await settled(trigger.id, 1)).toHaveLength(1);
	});

	it('starts the workflow with a bare JSON string too, kept as it is', async () => {
		const sent = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'unused',
			body: '"hello"',
		});
		expect(sent.status).toBe(200);
		const list = await settled(trigger.id, 2);
		expect(list).toHaveLength(2);
		const outputs = list.map((execution) => nodeOutput(execution, TRIGGER)[0]);
		expect(outputs).toContainEqual(expect.objectContaining({ id: sent.id, event: 'hello' }));
	});
});

describe('Partner Logistics Trigger: where a refusal shows', () => {
	const secret = unprefixedSecret();
	let trigger: Awaited<ReturnType<typeof activeTrigger>>;

	beforeAll(async () => {
		const credential = await createCredential('E2E refusals', secret);
		trigger = await activeTrigger('E2E refusals', credential);
	});

	it('answers a forger 401 with a generic message; the n8n log says why, at info level, without secrets', async () => {
		const offset = logSize();
		const forged = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'booking.created',
			data: { marker: 'e2e-forged-body' },
			mode: 'bad-signature',
		});
		expect(forged).toMatchObject({
			status: 401,
			body: { message: 'Webhook signature verification failed' },
		});
		expect(Object.keys(forged.body as object)).toEqual(['message']);
		const stale = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'booking.created',
			mode: 'stale-timestamp',
		});
		expect(stale).toMatchObject({
			status: 401,
			body: { message: 'Webhook signature verification failed' },
		});
		const logged = await waitFor('both refusals in the n8n log', async () => {
			const lines = logSince(offset).filter(({ message }) =>
				message.includes('refused a delivery'),
			);
			return lines.length >= 2 ? lines : undefined;
		});
		const refused = `Partner Logistics Trigger "${TRIGGER}" in workflow ${trigger.id} refused a delivery with 401`;
		expect(logged).toEqual([
			{
				level: 'info',
				message: `${refused}: the signature does not match the signing secret (signature-mismatch)`,
			},
			{
				level: 'info',
				message: `${refused}: the signed timestamp is older than the timestamp tolerance (stale-timestamp)`,
			},
		]);
		const text = JSON.stringify(logSince(offset));
		const signatures = [forged, stale].map((sent) => sent.headers['webhook-signature'].slice(3));
		for (const value of [secret, ...signatures, 'e2e-forged-body']) {
			expect(text).not.toContain(value);
		}
	});

	it('while the editor listens for a test event, shows the reason on the trigger and runs nothing after it', async () => {
		const listening = await suite.client.startManualRun(trigger.id, TRIGGER);
		expect(listening).toEqual({ waitingForWebhook: true });
		const forged = await suite.admin.sendWebhook({
			url: trigger.testUrl,
			secret: `whsec_${unprefixedSecret()}`,
			type: 'booking.created',
		});
		// n8n's own answer when a trigger throws; the sender learns nothing more.
		expect(forged).toMatchObject({
			status: 500,
			body: { message: 'Workflow Webhook Error: Workflow could not be started!' },
		});
		const [execution] = await settled(trigger.id, 1);
		expect([execution.mode, execution.status]).toEqual(['manual', 'error']);
		expect(execution.data?.resultData.error).toMatchObject({
			message: 'Test event refused: the signature does not match the signing secret',
			description: expect.stringMatching(/partner portal/),
		});
		expect(execution.data?.resultData.lastNodeExecuted).toBe(TRIGGER);
		// Listening ended with that event: the test URL is gone again.
		const after = await fetch(trigger.testUrl, { method: 'POST', body: '{}' });
		expect(after.status).toBe(404);
	});

	it('started no production execution', async () => {
		const list = await suite.client.executions(trigger.id);
		expect(list.filter((e) => e.mode !== 'manual')).toEqual([]);
	});
});

describe('Partner Logistics Trigger: a credential broken after publishing', () => {
	const secret = unprefixedSecret();
	let credential: string;
	let trigger: Awaited<ReturnType<typeof activeTrigger>>;

	beforeAll(async () => {
		credential = await createCredential('E2E broken later', secret);
		trigger = await activeTrigger('E2E broken later', credential);
	});

	it('answers a clean 503, starts nothing, and logs the problem', async () => {
		await suite.client.rest('PATCH', `/credentials/${credential}`, {
			name: 'E2E broken later',
			type: 'partnerLogisticsApi',
			data: credentialData('not a base64 secret!'),
		});
		// The trigger reuses what it read at publishing; a signature that does not match re-reads
		// the credential once that is 5 s old.
		await sleep(5200);
		const offset = logSize();
		const sent = await suite.admin.sendWebhook({
			url: trigger.url,
			secret: `whsec_${unprefixedSecret()}`,
			type: 'booking.created',
		});
		expect(sent).toMatchObject({
			status: 503,
			body: { message: 'The receiver of these events is not configured correctly' },
		});
		expect(JSON.stringify(sent.body)).not.toMatch(/stack|Error/);
		const signedWithTheOldSecret = await suite.admin.sendWebhook({
			url: trigger.url,
			secret,
			type: 'booking.created',
		});
		expect(signedWithTheOldSecret.status).toBe(503);
		const warned = await waitFor('the problem in the n8n log', async () => {
			const lines = logSince(offset).filter(({ message }) =>
				message.includes('cannot check deliveries'),
			);
			return lines.length ? lines : undefined;
		});
		expect(warned[0]).toEqual({
			level: 'warn',
			message: expect.stringMatching(
				/in workflow \w+ cannot check deliveries: The Webhook Signing Secret is not a Standard Webhooks secret/,
			),
		});
		await sleep(1500);
		expect(await suite.client.executions(trigger.id)).toEqual([]);
	});
});
