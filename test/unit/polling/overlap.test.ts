import {
	awaitingCommit,
	COMMIT_WAIT_MS,
	emittedWith,
	endPoll,
	startPoll,
} from '../../../nodes/PartnerLogistics/polling/overlap';

// What this n8n process knows of a trigger's polls: one under way, and the memory it emitted with.

describe('polls of one trigger', () => {
	test('a poll is skipped while another of the same trigger runs', () => {
		expect(startPoll('wf/a')).toBe(true);
		expect(startPoll('wf/a')).toBe(false);
		expect(startPoll('wf/b')).toBe(true);
		endPoll('wf/a');
		expect(startPoll('wf/a')).toBe(true);
		endPoll('wf/a');
		endPoll('wf/b');
	});

	test('a poll handed a memory older than the one emitted with waits for n8n to commit it', () => {
		const at = 1_000_000;
		expect(awaitingCommit('wf/c', 0, at)).toBe(false);
		emittedWith('wf/c', 4, at);
		expect(awaitingCommit('wf/c', 3, at + 1000)).toBe(true);
		expect(awaitingCommit('wf/c', 3, at + COMMIT_WAIT_MS - 1)).toBe(true);
		expect(awaitingCommit('wf/d', 3, at + 1000)).toBe(false);
		// The committed memory came back: from now on nothing is awaited.
		expect(awaitingCommit('wf/c', 4, at + 2000)).toBe(false);
		expect(awaitingCommit('wf/c', 3, at + 3000)).toBe(false);
	});

	test('a memory n8n never commits (the poll lost its lease) is awaited COMMIT_WAIT_MS at most', () => {
		const at = 2_000_000;
		emittedWith('wf/e', 7, at);
		expect(awaitingCommit('wf/e', 6, at + COMMIT_WAIT_MS)).toBe(false);
		expect(awaitingCommit('wf/e', 6, at + COMMIT_WAIT_MS + 1)).toBe(false);
	});
});
