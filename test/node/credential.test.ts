import { startSandbox, type Sandbox } from '../sandbox';
import { testCredential } from '../harness';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

describe('credential test (GET /partner-api/hubs, as n8n runs it)', () => {
	test('passes with a good key', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = sandbox.requests({ path: '/partner-api/hubs' }).slice(-1);
		expect(request.headers['x-svc-api-key']).toBe(sandbox.keys.full);
	});

	test('tolerates a trailing slash on the Base URL', async () => {
		const result = await testCredential({ baseUrl: `${sandbox.url}//`, apiKey: sandbox.keys.full });
		expect(result.status).toBe('OK');
	});

	test('a wrong key fails with a message a non-developer can act on', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: 'not-a-key' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/API key was refused \(401\).*partner portal/);
		expect(result.message).not.toContain('not-a-key');
	});

	test('a Base URL without /api/v1 fails saying so', async () => {
		const result = await testCredential({ baseUrl: sandbox.origin, apiKey: sandbox.keys.full });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/Base URL \(404\).*ends in \/api\/v1/),
		});
	});

	test('an address where nothing listens fails without hanging', async () => {
		const result = await testCredential({
			baseUrl: 'http://127.0.0.1:9/api/v1',
			apiKey: sandbox.keys.full,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/ECONNREFUSED|refused/i);
	});
});
