import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { credentialsFor, WORKFLOW_IDS } from '../lib/fixtures';
import { loadSuite } from '../lib/suiteContext';

// Runs last (setup/sequencer.js): by now every workflow ran and every delivery was made.
const suite = loadSuite();
const secrets = {
	'the full API key': suite.sandbox.keys.full,
	'the no-support API key': suite.sandbox.keys.noSupport,
	'the refused API key': credentialsFor(suite.sandbox, '', ['badKey'])[0].data.apiKey,
	'the webhook signing secret': suite.signingSecret,
	'the signing secret without its prefix': suite.signingSecret.replace(/^whsec_/, ''),
};

function filesUnder(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.map((name) => join(dir, name))
		.filter((path) => statSync(path).isFile());
}

describe('secrets stay out of n8n logs and stored executions', () => {
	const n8nData = join(suite.userFolder, '.n8n');
	// n8n's own files: its log files, the server's stdout/stderr, the sqlite database (and WAL).
	// The installed package (nodes/) and n8n's node type caches hold no run data.
	const scanned = [
		...filesUnder(suite.logDir),
		...filesUnder(n8nData).filter((path) => !path.startsWith(join(n8nData, 'nodes'))),
	];

	it('has something to scan: logs written at debug level and a database', () => {
		const names = scanned.map((path) => path.slice(suite.workDir.length));
		expect(names).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/n8n\.log$/),
				expect.stringMatching(/database\.sqlite$/),
			]),
		);
		const log = readFileSync(join(suite.logDir, 'n8n.log'), 'utf8');
		expect(log).toMatch(/debug/i);
	});

	it.each(Object.entries(secrets))('finds no trace of %s in any of them', (_name, secret) => {
		const hits = scanned.filter((path) => readFileSync(path).includes(secret));
		expect(hits).toEqual([]);
	});

	it.each(Object.entries(secrets))(
		'finds no trace of %s in executions read back with their data',
		async (_name, secret) => {
			for (const id of Object.values(WORKFLOW_IDS)) {
				const executions = await suite.client.executions(id);
				expect(JSON.stringify(executions)).not.toContain(secret);
			}
		},
	);

	it('is a real check: the key did reach the sandbox, in its header', async () => {
		const log = await suite.admin.get<Array<{ headers: Record<string, string> }>>('/log');
		expect(log.some((entry) => entry.headers['x-svc-api-key'] === suite.sandbox.keys.full)).toBe(
			true,
		);
	});
});
