import { CREDENTIAL_IDS } from '../lib/fixtures';
import { loadSuite } from '../lib/suiteContext';

// The credential dialog's "Test" button (N8nClient.testStoredCredential), as the editor sends it.
const suite = loadSuite();

describe('credential test through n8n', () => {
	it('passes with a working key', async () => {
		expect(await suite.client.testStoredCredential(CREDENTIAL_IDS.full)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	it('fails with a refused key, showing our message', async () => {
		const result = await suite.client.testStoredCredential(CREDENTIAL_IDS.badKey);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The API key was refused \(401\)\. Copy the key again/);
	});

	// The public API's test endpoint gives the same answers: credential-test-public-api.e2e.ts
	// (n8n 2.x only).

	it('sent the key only in the X-SVC-API-Key header of GET /partner-api/hubs', async () => {
		const log = await suite.admin.get<
			Array<{ method: string; path: string; headers: Record<string, string> }>
		>('/log?path=/partner-api/hubs');
		const withGoodKey = log.filter(
			(entry) => entry.headers['x-svc-api-key'] === suite.sandbox.keys.full,
		);
		expect(withGoodKey.length).toBeGreaterThan(0);
		expect(withGoodKey.every((entry) => entry.method === 'GET')).toBe(true);
	});
});

describe('credential test through n8n, against answers that are not the list of hubs', () => {
	afterEach(async () => await suite.admin.setFaults({}));

	it('does not follow a redirect to another host: nothing reaches it, the message names it', async () => {
		await suite.admin.clearRedirectTargetLog();
		await suite.admin.setFaults({
			failNext: [{ kind: 'redirect', status: 302, method: 'GET', path: '/partner-api/hubs' }],
		});
		const result = await suite.client.testStoredCredential(CREDENTIAL_IDS.full);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			`redirect (302) to ${suite.sandbox.redirectTargetOrigin}/api/v1/partner-api/hubs, not followed so the API key stays here`,
		);
		expect(result.message).not.toContain(suite.sandbox.keys.full);
		expect(await suite.admin.redirectTargetLog()).toEqual([]);
	});

	it('does not call a sign-in page a success', async () => {
		await suite.admin.setFaults({ failNext: [{ kind: 'html200', path: '/partner-api/hubs' }] });
		const result = await suite.client.testStoredCredential(CREDENTIAL_IDS.full);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringContaining('an HTML page titled "Partner Logistics | Sign in"'),
		});
	});
});
