// Prints one line, "N passed, N failed", from jest's --json result files. A stage that never got
// to jest (install, build or lint failed) counts as one failure, so a broken run is never "0 failed".
const { readFileSync } = require('node:fs');

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
	const result = JSON.parse(readFileSync(file, 'utf8'));
	if (result.ranJest === false) {
		console.log(`${result.stage} failed before jest ran`);
		failed += 1;
		continue;
	}
	passed += result.numPassedTests;
	failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
