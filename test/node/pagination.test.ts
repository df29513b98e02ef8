import { startSandbox, type Sandbox } from '../sandbox';
import { runAgainst } from './helpers';

// Support Case › Get Many with Return All: the spec shows `limit` only, so the node follows a
// next-page cursor only when the response reveals one, and otherwise returns what one call gives.

async function sandboxWithCases(listShape: 'array' | 'cursor', count: number) {
	const sandbox = await startSandbox({ listShape });
	for (let n = 0; n < count; n++) {
		await runAgainst(sandbox, {
			resource: 'supportCase',
			operation: 'create',
			title: `Case ${n}`,
			summary: 'x',
		});
	}
	return sandbox;
}

const getMany = { resource: 'supportCase', operation: 'getAll', returnAll: true, filters: {} };

describe('Return All', () => {
	let sandbox: Sandbox;
	afterEach(async () => await sandbox.close());

	test('follows the cursor a response reveals, sending it back as `cursor`', async () => {
		sandbox = await sandboxWithCases('cursor', 45);
		const { items, error, requests } = await runAgainst(sandbox, getMany);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(45);
		expect(new Set(items.map((item) => item.caseId)).size).toBe(45);
		expect(requests.length).toBeGreaterThan(1);
		expect(requests[0].query).toEqual({});
		expect(requests[1].query.cursor).toEqual(expect.any(String));
	});

	test('with a bare array returns what one call gives', async () => {
		sandbox = await sandboxWithCases('array', 25);
		const { items, requests } = await runAgainst(sandbox, getMany);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({});
		expect(items.length).toBeGreaterThan(0);
		expect(items.length).toBeLessThanOrEqual(25);
	});

	test('Limit sends `limit` and caps the items', async () => {
		sandbox = await sandboxWithCases('cursor', 5);
		const { items, requests } = await runAgainst(sandbox, {
			resource: 'supportCase',
			operation: 'getAll',
			limit: 3,
			filters: {},
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({ limit: '3' });
		expect(items).toHaveLength(3);
	});
});
