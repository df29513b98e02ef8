import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PartnerLogisticsApi } from '../../credentials/PartnerLogisticsApi.credentials';

// What a release must get right besides working code: a tarball holding what n8n loads and the
// docs, links that open the installed version's README, and release notes for the version. The
// release workflow runs `npm test`, so a version bump that misses one of these stops there.
const root = join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { name, version } = packageJson as { name: string; version: string };
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** GitHub's and npm's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchors(markdown: string): string[] {
	return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
		match[1]
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N} _-]/gu, '')
			.replace(/ /g, '-'),
	);
}

describe('a release', () => {
	const [pack] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ size: number; files: Array<{ path: string; size: number }> }>;
	const paths = pack.files.map((file) => file.path);

	test('ships only what n8n loads, and the docs: compiled code, codex files, icons, README, docs/', () => {
		// n8n requires the .js files named in package.json's n8n block (and what they import), reads
		// the codex .node.json beside each node, and serves the icons. Source maps and type
		// declarations are never read by anyone installing the package. The docs travel with the
		// README that links them (CONTRIBUTING.md: Docs and their links).
		const unexpected = paths.filter(
			(path) =>
				!/^dist\/.+\.js$/.test(path) &&
				!/^dist\/nodes\/.+\.node\.json$/.test(path) &&
				!/^dist\/icons\/.+\.svg$/.test(path) &&
				!/^docs\/([\w-]+\.(md|png)|templates\/[\w-]+\.json)$/.test(path) &&
				!['README.md', 'LICENSE', 'package.json', 'CHANGELOG.md', 'CONTRIBUTING.md'].includes(path),
		);
		expect(unexpected).toEqual([]);
		const n8n = packageJson.n8n as { nodes: string[]; credentials: string[] };
		for (const file of [...n8n.nodes, ...n8n.credentials]) expect(paths).toContain(file);
		for (const node of n8n.nodes) expect(paths).toContain(node.replace(/\.js$/, '.json'));
	});

	// 60 kB with the action node and the webhook trigger; the polling trigger with its seven
	// watches, the pacer shared per API key, the referent keys and the README's sections on them
	// and on the GO_BULK and HAUL flows bring it to 82.5 kB (84,435 bytes when issues 22 to 24
	// met); Dry Run, the bounded answers and the README's sections on them to 91 kB (93,031 bytes
	// when issues 29 to 31 met, the README being 63 kB of it). Since issue 38 the README is short
	// and the docs ship beside it. Unpacked, when issue 38 met: what n8n loads and the root files
	// 302,114 bytes, the docs' text 163,971, their screenshots 838,239; the tarball 920,212.
	test('keeps the tarball small: the code and README bounded, the docs bounded apart', () => {
		const sizeOf = (match: (path: string) => boolean) =>
			pack.files.filter((file) => match(file.path)).reduce((sum, file) => sum + file.size, 0);
		expect(sizeOf((path) => !path.startsWith('docs/'))).toBeLessThanOrEqual(320 * 1024);
		const docsText = sizeOf((path) => path.startsWith('docs/') && !path.endsWith('.png'));
		expect(docsText).toBeLessThanOrEqual(200 * 1024);
		expect(sizeOf((path) => path.endsWith('.png'))).toBeLessThanOrEqual(900 * 1024);
		expect(pack.size).toBeLessThanOrEqual(1024 * 1024);
	});

	test("points every docs link at this version's README on npm, at a heading that exists", () => {
		const codexUrls = [
			'PartnerLogistics',
			'PartnerLogisticsTrigger',
			'PartnerLogisticsPollingTrigger',
		].flatMap((node) => {
			const codex = JSON.parse(
				readFileSync(join(root, 'nodes/PartnerLogistics', `${node}.node.json`), 'utf8'),
			) as { resources: Record<string, Array<{ url: string }>> };
			return Object.values(codex.resources).flatMap((links) => links.map((link) => link.url));
		});
		const urls = [new PartnerLogisticsApi().documentationUrl, ...codexUrls];
		expect(urls).toHaveLength(7);
		const anchors = headingAnchors(readme);
		for (const url of urls) {
			const [page, anchor] = url.split('#');
			expect(page).toBe(`https://www.npmjs.com/package/${name}/v/${version}`);
			expect(anchors).toContain(anchor);
		}
	});

	test('has release notes for this version in CHANGELOG.md and the README', () => {
		const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
		expect(changelog).toMatch(new RegExp(`^## ${version.replace(/\./g, '\\.')} `, 'm'));
		const history = readme.slice(readme.indexOf('## Version history'));
		expect(history).toContain(`**${version}**`);
	});
});
