import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n's verification scan (scripts/scan.mjs runs @n8n/scan-community-package's analyzePackage the
// way n8n does): the packed tarball and the source, inline `eslint-disable` comments ignored.
// Reads dist/: `npm test` builds before running jest.
const root = join(__dirname, '..', '..');

function scan(...args: string[]) {
	const run = spawnSync(process.execPath, [join(root, 'scripts', 'scan.mjs'), ...args], {
		cwd: root,
		encoding: 'utf8',
	});
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("n8n's verification scan", () => {
	test('passes the tarball and the source checkout', () => {
		const { status, output } = scan();
		expect(output).toMatch(/^passed tarball /m);
		expect(output).toMatch(/^passed source /m);
		expect(status).toBe(0);
	}, 120_000);

	test('fails a source whose violation is hidden behind an eslint-disable comment', () => {
		// A copy of what n8n scans in the source (package.json, nodes/, credentials/, and icons/ that
		// they name) plus one parameter without a default, silenced inline as n8n's scan ignores.
		const copy = mkdtempSync(join(tmpdir(), 'scan-broken-'));
		try {
			for (const path of ['package.json', 'nodes', 'credentials', 'icons']) {
				cpSync(join(root, path), join(copy, path), { recursive: true });
			}
			writeFileSync(
				join(copy, 'nodes/PartnerLogistics/pipeline/silenced.ts'),
				[
					"import type { INodeProperties } from 'n8n-workflow';",
					'',
					'// eslint-disable-next-line n8n-nodes-base/node-param-default-missing',
					"export const silenced: INodeProperties = { displayName: 'Silenced', name: 'silenced', type: 'string' };",
					'',
				].join('\n'),
			);
			const { status, output } = scan(copy);
			expect(output).toMatch(/^passed tarball /m);
			expect(output).toMatch(/^FAILED source /m);
			expect(output).toContain('silenced.ts');
			expect(output).toMatch(/\berror\b.+n8n-nodes-base\/node-param-default-missing/);
			expect(output).toContain('1 problem (1 error, 0 warnings)');
			expect(status).toBe(1);
		} finally {
			rmSync(copy, { recursive: true, force: true });
		}
	}, 120_000);
});
