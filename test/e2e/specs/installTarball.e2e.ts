import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

import { packPackage, PACKAGE_NAME } from '../lib/communityPackage';
import { N8nClient } from '../lib/n8nApi';
import type { N8nInstance } from '../lib/n8nEnv';
import { type N8nServer, startN8n } from '../lib/n8nProcess';
import { repoRoot } from '../lib/paths';
import { freePort } from '../lib/ports';
import { loadSuite } from '../lib/suiteContext';
import { E2E_OWNER } from '../setup/state';

// README "Installation › From a tarball", done as a person would: its bash block run as written in
// a fresh home folder, then n8n started on that folder. The suite's main instance installs the
// package the way n8n's own installer does; this one checks the hand-made path the README sells.
const run = promisify(execFile);
const suite = loadSuite();
const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;

/** The bash block that follows the marker comment in the README's tarball section. */
function readmeTarballCommands(): string {
	const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
	const match = readme.match(/installTarball\.e2e\.ts[^\n]*\n```bash\n([\s\S]*?)\n```/);
	if (!match) throw new Error('README: no bash block after the install-tarball marker');
	return match[1];
}

describe('installing the packed tarball as the README says', () => {
	const home = join(suite.workDir, 'tarball-home');
	const nodesDir = join(home, '.n8n/nodes');
	let server: N8nServer | undefined;
	let client: N8nClient;

	beforeAll(async () => {
		const tarballDir = join(suite.workDir, 'tarball-download');
		const tarball = await packPackage(tarballDir);
		mkdirSync(home, { recursive: true });
		// `~` is this fresh home. npm keeps its usual cache (no refetching of n8n-workflow's
		// manifest) and none of the npm_* settings of the `npm run` that may have started jest.
		const env = Object.fromEntries(
			Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')),
		);
		await run('bash', ['-euo', 'pipefail', '-c', readmeTarballCommands()], {
			cwd: dirname(tarball),
			env: { ...env, HOME: home, npm_config_cache: join(homedir(), '.npm') },
		});

		const logDir = join(suite.workDir, 'tarball-logs');
		mkdirSync(logDir, { recursive: true });
		const instance: N8nInstance = {
			userFolder: home,
			port: await freePort(),
			brokerPort: await freePort(),
			logDir,
			encryptionKey: randomBytes(24).toString('hex'),
		};
		server = await startN8n(instance);
		client = new N8nClient(server.baseUrl);
		await client.signIn(E2E_OWNER);
	}, 240_000);

	afterAll(async () => {
		await server?.stop();
	});

	it('names the tarball npm pack makes for this version', () => {
		expect(readmeTarballCommands()).toContain(`${PACKAGE_NAME}-${version}.tgz`);
	});

	it('installs the package in ~/.n8n/nodes without a second n8n-workflow', () => {
		const installed = JSON.parse(
			readFileSync(join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'),
		);
		expect(installed.version).toBe(version);
		expect(existsSync(join(nodesDir, 'node_modules/n8n-workflow'))).toBe(false);
	});

	it('loads both nodes under their production type names, as the node panel lists them', async () => {
		const nodes =
			await client.editorGet<Array<{ name: string; displayName: string }>>('/types/nodes.json');
		const ours = nodes.body
			.filter((node) => node.name.startsWith(`${PACKAGE_NAME}.`))
			.map(({ name, displayName }) => ({ name, displayName }));
		expect(ours).toEqual(
			expect.arrayContaining([
				{ name: `${PACKAGE_NAME}.partnerLogistics`, displayName: 'Partner Logistics' },
				{
					name: `${PACKAGE_NAME}.partnerLogisticsTrigger`,
					displayName: 'Partner Logistics Trigger',
				},
			]),
		);
	});

	it('offers the Partner Logistics API credential', async () => {
		const credentials =
			await client.editorGet<Array<{ name: string; displayName: string }>>(
				'/types/credentials.json',
			);
		expect(credentials.body).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					name: 'partnerLogisticsApi',
					displayName: 'Partner Logistics API',
				}),
			]),
		);
	});

	it('is not listed under Settings › Community Nodes, as the README warns', async () => {
		const listed = await client.rest<Array<{ packageName: string }>>('GET', '/community-packages');
		expect(listed.data.map((entry) => entry.packageName)).not.toContain(PACKAGE_NAME);
	});
});
