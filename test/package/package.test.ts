import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';

// These tests read dist/: `npm test` builds before running jest.
const root = join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('the published package', () => {
	test('npm pack ships dist/, the README and the docs it links, LICENSE and package.json', () => {
		const [pack] = JSON.parse(
			execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
				cwd: root,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			}),
		);
		const paths: string[] = pack.files.map((file: { path: string }) => file.path);
		expect(paths).toEqual(
			expect.arrayContaining([
				'README.md',
				'LICENSE',
				'package.json',
				'CHANGELOG.md',
				'CONTRIBUTING.md',
				'dist/nodes/PartnerLogistics/PartnerLogistics.node.js',
				'dist/credentials/PartnerLogisticsApi.credentials.js',
				'dist/icons/partnerLogistics.svg',
			]),
		);
		// The README renders on npm with no repository beside it: every page and picture of docs/
		// travels with it, so its links open in the installed package and in npm's file view.
		const docs = readdirSync(join(root, 'docs'), { recursive: true, withFileTypes: true })
			.filter((entry) => entry.isFile())
			.map((entry) => relative(root, join(entry.parentPath, entry.name)));
		expect(docs.length).toBeGreaterThan(10);
		expect(paths).toEqual(expect.arrayContaining(docs));
		const strays = paths.filter(
			(path) =>
				!path.startsWith('dist/') &&
				!docs.includes(path) &&
				!['README.md', 'LICENSE', 'package.json', 'CHANGELOG.md', 'CONTRIBUTING.md'].includes(path),
		);
		expect(strays).toEqual([]);
		expect(paths.filter((path) => /(^|\/)test\/|sandbox|\.test\./.test(path))).toEqual([]);
	});

	test('has no runtime dependencies and only n8n-workflow as peer', () => {
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(Object.keys(packageJson.peerDependencies)).toEqual(['n8n-workflow']);
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
	});

	test('n8n loads every node and credential from dist/ with their icons', async () => {
		const loader = new PackageDirectoryLoader(root);
		await loader.loadAll();
		expect(loader.packageName).toBe('n8n-nodes-partner-logistics');
		expect(Object.keys(loader.nodeTypes).sort()).toEqual([
			'partnerLogistics',
			'partnerLogisticsPollingTrigger',
			'partnerLogisticsTrigger',
		]);
		expect(Object.keys(loader.credentialTypes)).toEqual(['partnerLogisticsApi']);
		// n8n serves icons from icons/<package>/<path inside the package>.
		const prefix = 'icons/n8n-nodes-partner-logistics/';
		for (const { iconUrl } of [...loader.types.nodes, ...loader.types.credentials]) {
			const { light, dark } = iconUrl as { light: string; dark: string };
			expect(light).not.toEqual(dark);
			for (const url of [light, dark]) {
				expect(url.startsWith(prefix)).toBe(true);
				expect(existsSync(join(root, url.slice(prefix.length)))).toBe(true);
			}
		}
	});
});
