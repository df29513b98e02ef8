import { CREDENTIAL_IDS } from '../lib/fixtures';
import { loadSuite } from '../lib/suiteContext';

// The credential test through n8n's public API (POST /api/v1/credentials/:id/test), beside the
// editor's Test button (credential-test.e2e.ts). A file of its own: n8n 1.x's public API has no
// such endpoint, so the suite on 1.x leaves this file out (test/e2e/versions.json).
const suite = loadSuite();

describe('credential test through the public API', () => {
	it('gives the same answers as the Test button', async () => {
		const good = await suite.client.publicApi('POST', `/credentials/${CREDENTIAL_IDS.full}/test`);
		expect(good.body).toMatchObject({ status: 'OK' });
		const bad = await suite.client.publicApi('POST', `/credentials/${CREDENTIAL_IDS.badKey}/test`);
		expect(bad.body).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('The API key was refused (401)'),
		});
	});
});
