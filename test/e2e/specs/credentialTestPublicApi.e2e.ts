import { expectPublicApiCredentialTest } from '../lib/assertions';
import { loadSuite } from '../lib/suiteContext';

// The credential test through n8n's public API (POST /api/v1/credentials/:id/test), beside the
// editor's Test button (credentialTest.e2e.ts). A file of its own: n8n 1.x's public API has no
// such endpoint, so the suite on 1.x leaves this file out (test/e2e/versions.json).
const suite = loadSuite();

describe('credential test through the public API', () => {
	it('gives the same answers as the Test button', async () => {
		await expectPublicApiCredentialTest(suite.client);
	});
});
