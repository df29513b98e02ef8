import { join } from 'node:path';

import { loadWorkflows, pollingEvery, WORKFLOW_IDS } from '../lib/fixtures';
import { sleep, waitFor } from '../lib/http';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { POLL_SECONDS, startPollingStack, type PollingStack } from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';
import { seedSampleRecords } from '../lib/watches';

// The playground's GO_BULK and HAUL watch samples (workflows 20 and 21) in real n8n, as a user
// tries them: published, then "Execute workflow" runs the sandbox operator's steps, and the
// polling triggers carry each flow on (pay the quoted request; accept the quoted quotation; the
// trip and the truck move). They poll every few seconds here instead of every minute.
const suite = loadSuite();
let polling: PollingStack;
let ids: Record<string, string>;

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling-samples'),
		archiveDir: join(suite.logDir, 'polling-samples'),
		workflows: async (_caseWatch, sandbox) => {
			ids = await seedSampleRecords(sandbox);
			const samples = loadWorkflows(sandbox, undefined, ids);
			return [WORKFLOW_IDS.goBulkWatch, WORKFLOW_IDS.haulWatch].map((id) =>
				pollingEvery(samples, id, POLL_SECONDS),
			);
		},
		log: (line) => process.stderr.write(`e2e polling samples: ${line}\n`),
	});
}, 240_000);

afterAll(async () => await polling?.stop());

const FINAL = ['success', 'error', 'crashed', 'canceled'];

/** The workflow's trigger executions once `done` holds for them and every one has ended. */
async function executionsWhen(
	workflowId: string,
	done: (executions: Execution[]) => boolean,
): Promise<Execution[]> {
	return await waitFor(
		`executions of ${workflowId}`,
		async () => {
			const list = (await polling.client.executions(workflowId)).filter(
				(e) => e.mode === 'trigger',
			);
			return list.every((e) => FINAL.includes(e.status)) && done(list) ? list : undefined;
		},
		{ timeoutMs: 120_000, intervalMs: 1000 },
	);
}

const ran = (execution: Execution, node: string) =>
	node in (execution.data?.resultData.runData ?? {});

describe('the GO_BULK and HAUL watch samples', () => {
	it('publishing both: the first polls learn the records, nothing runs', async () => {
		for (const id of [WORKFLOW_IDS.goBulkWatch, WORKFLOW_IDS.haulWatch]) {
			await polling.client.activateWorkflow(id);
		}
		await sleep(3 * POLL_SECONDS * 1000);
		expect(await polling.client.executions(WORKFLOW_IDS.goBulkWatch)).toEqual([]);
		expect(await polling.client.executions(WORKFLOW_IDS.haulWatch)).toEqual([]);
	});

	it('GO_BULK: the operator quotes, the workflow pays it with the saved card, once', async () => {
		const operator = await polling.client.runManually(WORKFLOW_IDS.goBulkWatch);
		expect(operator.status).toBe('success');
		// The quotation, then the payment it started: two changes, one payment.
		const list = await executionsWhen(WORKFLOW_IDS.goBulkWatch, (executions) =>
			executions.some((e) => ran(e, 'Other changes (paid, settled…)')),
		);
		const paying = list.filter((e) => ran(e, 'Pay with saved card'));
		expect(paying).toHaveLength(1);
		expect(nodeOutput(paying[0], 'Pay with saved card')).toEqual([
			expect.objectContaining({ paymentMethod: 'SAVED_CARD', status: 'PENDING' }),
		]);
		const state = await polling.admin.stateOfOrgA();
		const first = ids.__GO_BULK_FIRST_ID__;
		expect(state.payments.filter((payment) => payment.resourceId === first)).toHaveLength(1);
	});

	it('HAUL: the quotation is accepted once; the trip and the truck each start one execution', async () => {
		const operator = await polling.client.runManually(WORKFLOW_IDS.haulWatch);
		expect(operator.status).toBe('success');
		const list = await executionsWhen(WORKFLOW_IDS.haulWatch, (executions) =>
			['Accept the quotation', 'Other quotation changes', 'Trip update', 'Truck update'].every(
				(node) => executions.some((e) => ran(e, node)),
			),
		);
		const count = (node: string) => list.filter((e) => ran(e, node)).length;
		expect(count('Accept the quotation')).toBe(1);
		expect(count('Trip update')).toBe(1);
		expect(count('Truck update')).toBe(1);
		const accepted = list.find((e) => ran(e, 'Accept the quotation'))!;
		expect(nodeOutput(accepted, 'Accept the quotation')).toEqual([
			expect.objectContaining({ quotationId: ids.__HAUL_FIRST_ID__, status: 'ACCEPTED' }),
		]);
	});
});
