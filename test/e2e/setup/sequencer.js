// Specs run in file name order; the secrets check reads what all the others left behind, so it
// always runs last.
const Sequencer = require('@jest/test-sequencer').default;

class E2eSequencer extends Sequencer {
	sort(tests) {
		const last = (test) => (test.path.endsWith('secrets.e2e.ts') ? 1 : 0);
		return [...tests].sort((a, b) => last(a) - last(b) || a.path.localeCompare(b.path));
	}
}

module.exports = E2eSequencer;
