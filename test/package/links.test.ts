import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// scripts/check-links.mjs, which `npm run lint` runs: the README renders on npm with only the
// tarball beside it, and the nodes' Docs links open its headings, so a pointer that goes stale
// must stop the build. Each case breaks one pointer in a copy of what the check reads.
const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

function check(folder = root) {
	const run = spawnSync(process.execPath, [join(root, 'scripts/check-links.mjs'), folder], {
		encoding: 'utf8',
	});
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A copy of the docs, the product and package.json, changed by `change`, then checked. */
function checkCopy(change: (copy: string) => void) {
	const copy = mkdtempSync(join(tmpdir(), 'links-'));
	try {
		for (const path of [
			'package.json',
			'README.md',
			'CONTRIBUTING.md',
			'CHANGELOG.md',
			'LICENSE',
			'docs',
			'nodes',
			'credentials',
		])
			cpSync(join(root, path), join(copy, path), { recursive: true });
		change(copy);
		return check(copy);
	} finally {
		rmSync(copy, { recursive: true, force: true });
	}
}

describe('the link check of npm run lint', () => {
	test('passes this repository, its tarball included', () => {
		const { status, output } = check();
		expect(output).toMatch(/^check-links: every pointer of \d+ docs/m);
		expect(status).toBe(0);
	});

	test('fails an anchor that names no heading, and a file that does not exist', () => {
		const { status, output } = checkCopy((copy) =>
			appendFileSync(
				join(copy, 'docs/errors.md'),
				'\nSee [the limits](rate-limits-and-retries.md#no-such-heading) and [gone](gone.md).\n',
			),
		);
		expect(output).toContain('no heading #no-such-heading in docs/rate-limits-and-retries.md');
		expect(output).toContain('gone.md: docs/gone.md does not exist');
		expect(status).toBe(1);
	});

	test('fails a README link to a file the tarball does not ship', () => {
		const { status, output } = checkCopy((copy) => {
			const pkg = JSON.parse(read('package.json'));
			pkg.files = pkg.files.filter((entry: string) => entry !== 'docs');
			writeFileSync(join(copy, 'package.json'), JSON.stringify(pkg));
		});
		expect(output).toMatch(/README\.md:\d+: docs\/\S+: docs\/\S+ is not in the packed tarball/);
		expect(status).toBe(1);
	});

	test('fails a codex Docs link to a heading the README does not have', () => {
		const { status, output } = checkCopy((copy) => {
			const path = join(copy, 'nodes/PartnerLogistics/PartnerLogistics.node.json');
			writeFileSync(path, readFileSync(path, 'utf8').replace('#operations', '#usage'));
		});
		expect(output).toMatch(/PartnerLogistics\.node\.json: \S+#usage: no heading #usage in README/);
		expect(status).toBe(1);
	});

	test('fails a product comment naming a file or a README heading that does not exist', () => {
		const { status, output } = checkCopy((copy) =>
			appendFileSync(
				join(copy, 'nodes/PartnerLogistics/PartnerLogistics.node.ts'),
				'\n// The pacer lives in pipeline/pacers.ts (README: Architecture).\n',
			),
		);
		expect(output).toContain('names pipeline/pacers.ts, which does not exist');
		expect(output).toContain('names the README heading "Architecture", which does not exist');
		expect(status).toBe(1);
	});
});
