// Specs run in file name order: the forged-delivery count compares totals across the others.
const Sequencer = require('@jest/test-sequencer').default;

class QueueSequencer extends Sequencer {
	sort(tests) {
		return [...tests].sort((a, b) => a.path.localeCompare(b.path));
	}
}

module.exports = QueueSequencer;
