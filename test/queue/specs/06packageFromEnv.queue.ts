import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PACKAGE_NAME } from '../../e2e/lib/communityPackage';
import { waitFor } from '../../e2e/lib/http';
import type { N8nServer } from '../../e2e/lib/n8nProcess';
import { roleLogFile, startWorker } from '../../e2e/lib/queueMode';
import { loadQueueSuite } from '../setup/context';

// The package reaches every queue-mode process from N8N_COMMUNITY_PACKAGES (n8n 2.21+, with
// N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV): the main installs it at start, fetching it from the npm
// registry as n8n does (here a stand-in serving the packed tarball, see registryStandIn.ts), and
// a process that starts without it (a new container, its own empty user folder) installs it
// itself (N8N_REINSTALL_MISSING_PACKAGES). The other specs run the node on the worker.
const suite = loadQueueSuite();
const { version } = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
	version: string;
};

/** The messages of an n8n JSON-lines log. */
const messages = (file: string) =>
	existsSync(file)
		? readFileSync(file, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((line) => {
					try {
						return String((JSON.parse(line) as { message?: unknown }).message ?? '');
					} catch {
						return line;
					}
				})
		: [];

describe('the package from N8N_COMMUNITY_PACKAGES', () => {
	it('the main installed it at start from the registry, and n8n lists it as installed', async () => {
		expect(messages(suite.logFiles.main)).toContain(
			`Installed community package '${PACKAGE_NAME}@${version}' from env`,
		);
		expect(suite.registryRequests).toEqual(
			expect.arrayContaining([
				`/${PACKAGE_NAME}/${version}`,
				`/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${version}.tgz`,
			]),
		);
		const installed = await suite.client.rest<
			Array<{ packageName: string; installedVersion: string }>
		>('GET', '/community-packages');
		expect(installed.data).toEqual([
			expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: version }),
		]);
	});

	describe('a worker started later with an empty user folder', () => {
		let worker: N8nServer | undefined;
		const userFolder = mkdtempSync(join(tmpdir(), 'partner-logistics-fresh-worker-'));
		const log = roleLogFile(suite.instance, 'worker-fresh');
		afterAll(async () => {
			await worker?.stop();
			rmSync(userFolder, { recursive: true, force: true });
		});

		it('installs the package itself before it takes executions', async () => {
			worker = await startWorker({ ...suite.instance, userFolder }, 'worker-fresh');
			await waitFor(
				'the fresh worker to reinstall the package',
				async () =>
					messages(log).includes(
						'Packages reinstalled successfully. Resuming regular initialization.',
					)
						? true
						: undefined,
				{ timeoutMs: 60_000, intervalMs: 250 },
			);
			const manifest = join(userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME, 'package.json');
			expect(JSON.parse(readFileSync(manifest, 'utf8'))).toMatchObject({
				name: PACKAGE_NAME,
				version,
			});
		});
	});
});
