import { expectSucceeded, type LoggedRequest, onlyItem, runWithRequests } from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

const suite = loadSuite();

describe('support case: create -> comment -> close -> reopen -> get -> list OPEN', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.supportCase));
	});

	it('succeeds', () => expectSucceeded(execution));

	it('moves one case through open, closed and open again', () => {
		const created = onlyItem(execution, 'Open a support case');
		expect(created).toMatchObject({
			caseId: expect.stringMatching(/^case_/),
			status: 'OPEN',
			title: 'Parcel not delivered',
		});
		expect(onlyItem(execution, 'Add a comment')).toMatchObject({
			caseId: created.caseId,
			type: 'COMMENT',
			message: 'The recipient is available after 3 pm.',
		});
		expect(onlyItem(execution, 'Close the case')).toMatchObject({
			caseId: created.caseId,
			status: 'CLOSED',
		});
		expect(onlyItem(execution, 'Reopen the case')).toMatchObject({
			caseId: created.caseId,
			status: 'OPEN',
		});
	});

	it('reads the case back with its partner-visible timeline, by a GET without an Idempotency-Key', async () => {
		const created = onlyItem(execution, 'Open a support case');
		const read = onlyItem(execution, 'Get the case');
		expect(read).toMatchObject({ caseId: created.caseId, status: 'OPEN', title: created.title });
		const timeline = read.timeline as Array<{ type: string; author: string }>;
		expect(timeline.map((entry) => `${entry.type} ${entry.author}`)).toEqual([
			'CREATED PARTNER',
			'COMMENT SUPPORT',
			'COMMENT PARTNER',
			'CLOSED PARTNER',
			'REOPENED PARTNER',
		]);
		const gets = requests.filter((r) => r.method === 'GET');
		expect(gets.map((r) => r.path)).toEqual([
			`/partner-api/support-cases/${created.caseId}`,
			'/partner-api/support-cases',
		]);
		expect(gets[0].headers['x-svc-api-key']).toBe(suite.sandbox.keys.full);
		expect(gets[0].headers).not.toHaveProperty('idempotency-key');
	});

	it('lists open cases only, the reopened one among them', () => {
		const created = onlyItem(execution, 'Open a support case');
		const listed = nodeOutput(execution, 'List open cases');
		expect(listed.map((c) => c.caseId)).toContain(created.caseId);
		expect(listed.every((c) => c.status === 'OPEN')).toBe(true);
	});
});

describe('support case with a key lacking support:create', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.supportCaseNoCapability));
	});

	it('fails at the first step, naming the missing capability', () => {
		expect(execution.status).toBe('error');
		const error = execution.data?.resultData.error;
		expect(error?.node?.name).toBe('Open a support case');
		expect(`${error?.message} ${error?.description ?? ''}`).toContain('support:create');
		expect(Object.keys(execution.data?.resultData.runData ?? {})).not.toContain('Add a comment');
	});

	it('was refused by the API with 403 and created nothing', async () => {
		expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', '/partner-api/support-cases', 403],
		]);
	});
});
