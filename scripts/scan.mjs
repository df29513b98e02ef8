// n8n's verification scan, run here the way n8n runs it before it verifies a community package
// (@n8n/scan-community-package, scanner/scanner.mjs, analyzePackageByName): ESLint with n8n's
// rules and inline `eslint-disable` comments ignored, on both
//   - the tarball `npm pack` makes, unpacked, on its compiled `.js` and package.json, and
//   - the source checkout (npm provenance tells n8n which commit), on SOURCE_FILE_PATTERNS:
//     package.json and nodes/ and credentials/ (every .ts there, helpers included).
// n8n's CLI only takes a published package name; this runs the same analyzePackage on this checkout
// before anything is published. Run after `npm run build` (the tarball ships dist/).
// Usage: node scripts/scan.mjs [source directory, default: this checkout]. Exits 1 on any error.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = resolve(process.argv[2] ?? root);
// What n8n lints in the downloaded tarball (analyzePackageByName's tarball leg).
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

const work = mkdtempSync(join(tmpdir(), 'n8n-scan-'));
// The scanner makes a temporary directory when it loads and leaves it behind: keep it in ours.
process.env.TMPDIR = work;
// eslint-plugin-n8n-nodes-base switches to its own unit-test fixtures when NODE_ENV is "test" (as
// under jest), which changes what its filename and error rules report. n8n's scan runs without it.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
try {
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		'@n8n/scan-community-package/scanner/scanner.mjs'
	);
	const [pack] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	const tarballDir = join(work, 'package');
	mkdirSync(tarballDir);
	execFileSync('tar', [
		'-xzf',
		join(work, pack.filename),
		'-C',
		tarballDir,
		'--strip-components=1',
	]);

	const legs = [
		{ label: `tarball ${pack.filename}`, dir: tarballDir, patterns: TARBALL_FILE_PATTERNS },
		{ label: `source ${sourceDir}`, dir: sourceDir, patterns: SOURCE_FILE_PATTERNS },
	];
	let passed = true;
	for (const { label, dir, patterns } of legs) {
		const result = await analyzePackage(dir, patterns);
		passed &&= result.passed;
		const note = result.message ? `: ${result.message}` : '';
		console.log(`${result.passed ? 'passed' : 'FAILED'} ${label} [${patterns.join(', ')}]${note}`);
		if (result.details) console.log(result.details.trim());
	}
	process.exitCode = passed ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
