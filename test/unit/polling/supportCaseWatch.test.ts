import type { IDataObject } from 'n8n-workflow';

import { comment, openCase, useSandbox, watchCases } from './helpers';

// The polling trigger in n8n-core's PollContext against the sandbox over real HTTP, polled the way
// n8n polls an active workflow (test/harness/poll.ts says what of n8n is imitated).

const context = useSandbox();
let sandbox: typeof context.sandbox;
let api: typeof context.api;
beforeAll(() => ({ sandbox, api } = context));

describe('watching support cases', () => {
	test('a new case once, a changed case once, an unchanged one never', async () => {
		const older = await openCase(api, 'Before the trigger');
		const trigger = watchCases(sandbox);

		expect(await trigger.activate()).toEqual({ items: null });
		expect(trigger.savedState()).toMatchObject({ memory: { records: [{ id: older }] } });

		const caseId = await openCase(api, 'Parcel not delivered');
		const created = await trigger.poll();
		expect(created.items).toEqual([
			{
				change: 'new',
				recordId: caseId,
				changedFields: [],
				record: expect.objectContaining({ caseId, status: 'OPEN', title: 'Parcel not delivered' }),
			},
		]);
		expect((await trigger.poll()).items).toBeNull();

		await comment(api, caseId, 'The recipient is in after 3 pm.');
		const changed = await trigger.poll();
		expect(changed.items).toEqual([
			expect.objectContaining({
				change: 'changed',
				recordId: caseId,
				changedFields: ['updatedAt'],
			}),
		]);
		expect((await trigger.poll()).items).toBeNull();
		expect(trigger.executions).toHaveLength(2);

		// What the trigger sent: Support Case › Get Many's request, a GET without Idempotency-Key.
		const [request] = sandbox.requests({ method: 'GET' }).slice(-1);
		expect(request).toMatchObject({
			path: '/partner-api/support-cases',
			query: { status: 'OPEN', limit: '50' },
		});
		expect(request.headers['x-svc-api-key']).toBe(sandbox.keys.full);
		expect(request.headers).not.toHaveProperty('idempotency-key');
	});

	test('a case that is closed leaves an OPEN watch; an all-status watch sees the change', async () => {
		const caseId = await openCase(api, 'Wrong address');
		const open = watchCases(sandbox);
		const all = watchCases(sandbox, { status: '' });
		await open.activate();
		await all.activate();
		expect(
			(await api.post(`/partner-api/support-cases/${caseId}/close`, { note: 'Solved' })).status,
		).toBe(200);
		expect((await open.poll()).items).toBeNull();
		expect((await all.poll()).items).toMatchObject([
			{ change: 'changed', recordId: caseId, changedFields: ['status', 'updatedAt'] },
		]);
	});

	test('emits the current cases on the first poll when asked to', async () => {
		const caseId = await openCase(api, 'Existing');
		const trigger = watchCases(sandbox, { options: { emitCurrentState: true } });
		expect((await trigger.activate()).items).toMatchObject([
			{ change: 'current', recordId: caseId },
		]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('hands the previous record with a change when Include Previous Record is on', async () => {
		const caseId = await openCase(api, 'Damaged box');
		const trigger = watchCases(sandbox, { options: { includePrevious: true } });
		await trigger.activate();
		const [before] = (await api.get('/partner-api/support-cases')).body;
		await comment(api, caseId, 'Photos are in the portal.');
		const [item] = (await trigger.poll()).items!;
		expect(item.previous).toEqual(before);
		expect(item.record).not.toEqual(before);
	});
});

describe('n8n restarting', () => {
	test('repeats nothing, and emits a change made while n8n was down once', async () => {
		const caseId = await openCase(api, 'Before');
		const trigger = watchCases(sandbox);
		await trigger.activate();
		const other = await openCase(api, 'Emitted before the restart');
		expect((await trigger.poll()).items).toMatchObject([{ recordId: other }]);

		expect(await trigger.restart()).toEqual({ items: null });
		await comment(api, caseId, 'Made while n8n was down');
		const afterDowntime = await trigger.restart();
		expect(afterDowntime.items).toMatchObject([{ change: 'changed', recordId: caseId }]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('starts over with a first poll when what is watched changes', async () => {
		await openCase(api, 'Open one');
		const trigger = watchCases(sandbox);
		await trigger.activate();
		trigger.setParameters({ watch: 'supportCase', status: '' });
		expect(await trigger.restart()).toEqual({ items: null });
		expect(trigger.savedState()).toMatchObject({
			memory: { watching: 'supportCase status= id=caseId' },
		});
	});
});

describe('Fetch Test Event', () => {
	test('shows the current records and changes no memory: the active workflow still gets the new case', async () => {
		const trigger = watchCases(sandbox);
		await trigger.activate();
		const caseId = await openCase(api, 'Seen in the editor first');
		const saved = trigger.savedState();

		const test = await trigger.fetchTestEvent();
		expect(test.items).toMatchObject([{ change: 'current', recordId: caseId, changedFields: [] }]);
		expect(trigger.savedState()).toEqual(saved);

		expect((await trigger.poll()).items).toMatchObject([{ change: 'new', recordId: caseId }]);
	});

	test('shows the error of a poll that fails', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 500, path: '/partner-api/support-cases' }] });
		const test = await watchCases(sandbox).fetchTestEvent();
		expect(test.error?.message).toMatch(/^Could not check support cases: .*\(500\)/);
	});
});

test('two polls of one trigger at the same time: the later one is skipped, nothing is emitted twice', async () => {
	const trigger = watchCases(sandbox);
	await trigger.activate();
	await openCase(api, 'Slow API');
	sandbox.admin.setFaults({ delayMs: 300 });
	const [a, b] = await Promise.all([trigger.poll(), trigger.poll()]);
	sandbox.admin.setFaults({});
	const emitted = [a.items, b.items].filter((items): items is IDataObject[] => items !== null);
	expect(emitted).toHaveLength(1);
	expect(emitted[0]).toHaveLength(1);
	expect((await trigger.poll()).items).toBeNull();
});
