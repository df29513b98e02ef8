import { startPollHarness } from '../../harness/poll';
import { comment, credentialsOf, openCase, useSandbox, watchCases } from './helpers';

// Polls that fail, in n8n-core's PollContext against the sandbox: nothing is emitted, the memory
// stays exactly as it was, and the error is what n8n shows.

const context = useSandbox();
let sandbox: typeof context.sandbox;
let api: typeof context.api;
beforeAll(() => ({ sandbox, api } = context));

describe('a failed poll', () => {
	test('a 500 emits nothing, leaves the memory exactly as it was, and the next poll emits the change once', async () => {
		const caseId = await openCase(api, 'Late parcel');
		const trigger = watchCases(sandbox);
		await trigger.activate();
		await comment(api, caseId, 'Any news?');
		const live = trigger.liveState();
		const saved = trigger.savedState();

		sandbox.admin.setFaults({
			failNext: [{ status: 500, method: 'GET', path: '/partner-api/support-cases' }],
		});
		const failed = await trigger.poll();
		expect(failed.items).toBeNull();
		expect(failed.error?.message).toBe(
			'Could not check support cases: The Partner Logistics API failed (500): Internal server error (injecte… Try again later.',
		);
		expect(trigger.failures).toHaveLength(1);
		expect(trigger.liveState()).toEqual(live);
		expect(trigger.savedState()).toEqual(saved);
		expect(trigger.executions).toHaveLength(0);

		expect((await trigger.poll()).items).toMatchObject([{ change: 'changed', recordId: caseId }]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('fails the activation when the first poll cannot read the API', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 500, path: '/partner-api/support-cases' }] });
		const trigger = watchCases(sandbox);
		const activation = await trigger.activate();
		expect(activation.error?.message).toMatch(/^Could not check support cases: .*\(500\)/);
		expect(trigger.savedState()).toEqual({});
	});

	test('a key without support:read: the message names the capability, never the key', async () => {
		const trigger = startPollHarness({
			parameters: { watch: 'supportCase' },
			credentials: { baseUrl: sandbox.url, apiKey: sandbox.keys.noSupport },
		});
		const activation = await trigger.activate();
		expect(activation.error?.message).toContain('lacks the capability support:read (403)');
		expect(activation.error?.message).not.toContain(sandbox.keys.noSupport);
	});

	test('a record without the ID field fails the poll, naming the field and what the record has', async () => {
		await openCase(api, 'No such field');
		const trigger = watchCases(sandbox, { caseIdField: 'id' });
		const activation = await trigger.activate();
		expect(activation.error?.message).toBe(
			`The support case at position 1 of the API's answer has no usable ID (Case ID Field)`,
		);
		expect(activation.error?.description).toMatch(/^Its fields: caseId, title, /);
		expect(activation.error?.description).toMatch(
			/Changes cannot be told apart: set Case ID Field \(now "id"\) to the field that identifies a support case\./,
		);
	});

	test('more records than Max Records Remembered fail the poll, and nothing is remembered', async () => {
		await openCase(api, 'One');
		const trigger = watchCases(sandbox, { options: { maxRecords: 1 } });
		await trigger.activate();
		const state = trigger.liveState();
		await openCase(api, 'Two');
		const result = await trigger.poll();
		expect(result.error?.message).toBe(
			'The API listed 2 support cases, more than Options › Max Records Remembered (1)',
		);
		expect(trigger.liveState()).toEqual(state);
	});

	test('an unknown Trigger On or a Max Records Remembered below 1 stops the poll before any request, the value in the description', async () => {
		sandbox.clearLog();
		const watch = 'x'.repeat(300);
		const unknown = startPollHarness({
			parameters: { watch },
			credentials: credentialsOf(sandbox),
		});
		expect((await unknown.activate()).error).toMatchObject({
			message:
				'This version of the Partner Logistics Polling Trigger cannot watch the Trigger On chosen',
			description: `Got "${watch}". Open the trigger and choose Trigger On again.`,
		});
		const none = watchCases(sandbox, { options: { maxRecords: 0 } });
		expect((await none.activate()).error).toMatchObject({
			message: 'Options › Max Records Remembered (maxRecords) must be a whole number of at least 1',
			description: 'Got 0.',
		});
		expect(sandbox.requests()).toEqual([]);
	});
});
