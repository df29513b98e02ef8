import { join } from 'node:path';

import { lastSeq, sandboxRequests } from '../lib/assertions';
import { POLLING_TRIGGER } from '../lib/fixtures';
import { CaseWatch, type PollingStack, startPollingStack, WATCH } from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';

// What n8n 2.x does when the polling trigger is published: it refuses Poll Times more often than a
// minute, and retries a first poll that fails before it reports the poll's error, both read from
// 2.x's publication status. A file of its own, on an n8n of its own: n8n 1.x has no publication
// status (it refuses the activation request itself), so its suite leaves this file out
// (test/e2e/versions.json).
const suite = loadSuite();
let polling: PollingStack;
let watch: CaseWatch;

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling-publishing'),
		archiveDir: join(suite.logDir, 'polling-publishing'),
		log: (line) => process.stderr.write(`e2e polling publishing: ${line}\n`),
	});
	watch = new CaseWatch(polling.client, polling.admin, polling.stack.sandbox.info);
}, 240_000);

afterAll(async () => await polling?.stop());

describe('publishing the polling trigger in n8n 2.x', () => {
	it('n8n refuses a Poll Time more often than once a minute, as the README says', async () => {
		const workflow = await polling.client.publicApi<{ nodes: Array<Record<string, unknown>> }>(
			'GET',
			`/workflows/${WATCH}`,
		);
		const nodes = workflow.body.nodes.map((node) =>
			node.name === POLLING_TRIGGER
				? {
						...node,
						parameters: {
							...(node.parameters as object),
							pollTimes: { item: [{ mode: 'custom', cronExpression: '*/5 * * * * *' }] },
						},
					}
				: node,
		);
		const created = await polling.client.publicApi<{ id: string }>('POST', '/workflows', {
			name: 'Support case watch, every 5 seconds',
			nodes,
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		expect(created.status).toBe(200);
		await polling.client.activateWorkflow(created.body.id);
		// n8n 2.41 publishes in the background: the outcome is the workflow's publication status.
		const status = await watch.publicationStatus(created.body.id);
		expect(status).toMatchObject({
			status: 'failed',
			triggers: [
				{
					status: 'failed',
					errorMessage: expect.stringContaining(
						'The polling interval is too short. It has to be at least a minute.',
					),
				},
			],
		});
	});

	it("publishing while the API fails: n8n tries the first poll 5 times, then reports the poll's error", async () => {
		const copy = await polling.client.publicApi<{ nodes: unknown[]; connections: unknown }>(
			'GET',
			`/workflows/${WATCH}`,
		);
		const created = await polling.client.publicApi<{ id: string }>('POST', '/workflows', {
			name: 'Support case watch, published while the API fails',
			nodes: copy.body.nodes,
			connections: copy.body.connections,
			settings: { executionOrder: 'v1' },
		});
		expect(created.status).toBe(200);
		// The watch is not published here: the fault is for the new workflow's first poll.
		expect(await watch.publicationStatus()).toMatchObject({ status: 'not_published' });
		const since = await lastSeq(polling.admin);
		await polling.admin.setFaults({
			failNext: [{ status: 500, method: 'GET', path: '/partner-api/support-cases', times: 5 }],
		});
		await polling.client.activateWorkflow(created.body.id);
		const status = await watch.publicationStatus(created.body.id);
		await polling.admin.setFaults({});
		// n8n 2.41 retries a trigger's activation 5 times, 1, 2, 4 and 8 s apart.
		const polls = await sandboxRequests(polling.admin, since);
		expect(polls.map((request) => [request.path, request.status])).toEqual(
			Array(5).fill(['/partner-api/support-cases', 500]),
		);
		expect(status).toMatchObject({
			status: 'failed',
			triggers: [
				{
					status: 'failed',
					errorMessage: expect.stringMatching(/Could not check support cases: .*\(500\)/),
				},
			],
		});
	});
});
