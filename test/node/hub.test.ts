import { startSandbox, type Sandbox } from '../sandbox';
import { runNode } from '../harness';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.clearLog());

test('Hub › Get Many returns the active hubs as items, with the key and no Idempotency-Key', async () => {
	const result = await runNode(
		{ resource: 'hub', operation: 'getAll' },
		{ credentials: { baseUrl: sandbox.url, apiKey: sandbox.keys.full } },
	);

	expect(result.error()).toBeUndefined();
	const ids = result.output().map((item) => item.json.id);
	expect(ids).toEqual(sandbox.hubs.active);
	expect(ids).not.toContain(sandbox.hubs.inactive[0]);
	// Unknown hub fields pass through untouched.
	expect(result.output()[0].json).toMatchObject({ name: expect.any(String), active: true });

	const requests = sandbox.requests();
	expect(requests).toHaveLength(1);
	expect(requests[0]).toMatchObject({ method: 'GET', path: '/partner-api/hubs', status: 200 });
	expect(requests[0].headers['x-svc-api-key']).toBe(sandbox.keys.full);
	expect(requests[0].headers).not.toHaveProperty('idempotency-key');
});
