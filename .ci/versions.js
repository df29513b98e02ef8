// One line per n8n version of test/e2e/versions.json, "n8n X on Node Y: N passed, N failed", from
// the jest JSON files .ci/run wrote for it: the pinned runtime (test/e2e/runtime) runs the e2e and
// queue suites (e2e.json, queue.json); every other one its e2e subset (e2e-<name>.json). A result
// file missing, or a stage that never got to jest, counts as one failure, as in summary.js.
// Usage: node .ci/versions.js <out folder>
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const out = process.argv[2];
const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'test/e2e/versions.json'), 'utf8'));

for (const runtime of manifest.runtimes) {
	const pinned = runtime.folder === 'test/e2e/runtime';
	let passed = 0;
	let failed = 0;
	for (const suite of runtime.suites) {
		const file = join(out, pinned ? `${suite}.json` : `${suite}-${runtime.name}.json`);
		const result = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { ranJest: false };
		if (result.ranJest === false) {
			failed += 1;
			continue;
		}
		passed += result.numPassedTests;
		failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
	}
	console.log(`n8n ${runtime.n8n} on Node ${runtime.node}: ${passed} passed, ${failed} failed`);
}
for (const version of manifest.notRun) {
	console.log(`n8n ${version.n8n}: not run (see test/e2e/versions.json)`);
}
