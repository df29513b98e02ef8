import { PROCESS_MEMORY } from '../shared/processMemory';

// Polls that would emit a change again are skipped: one started while the last still runs (n8n
// starts one at each Poll Time regardless), and one handed a memory older than the last emitted
// with (n8n 2.41's durable scheduler commits it with the execution, later), until that commit
// comes or COMMIT_WAIT_MS pass (the poll lost its lease).
const polling = PROCESS_MEMORY.pollsUnderWay;
const emitted = PROCESS_MEMORY.pollMemoriesAwaitingCommit;

export const COMMIT_WAIT_MS = 60_000;

/** Marks `scope` (a workflow's trigger node) as polling; false if a poll of it is under way. */
export function startPoll(scope: string): boolean {
	if (polling.get(scope)) return false;
	polling.set(scope, true);
	return true;
}

export function endPoll(scope: string): void {
	polling.delete(scope);
}

/** Whether the memory handed to this poll (`generation`) is older than one emitted with lately. */
export function awaitingCommit(scope: string, generation: number, now = Date.now()): boolean {
	const last = emitted.get(scope);
	if (!last || generation >= last.generation || now - last.at >= COMMIT_WAIT_MS) {
		emitted.delete(scope);
		return false;
	}
	return true;
}

/** Records that a poll emitted with the memory of `generation`, which n8n commits after. */
export function emittedWith(scope: string, generation: number, now = Date.now()): void {
	emitted.set(scope, { generation, at: now });
}
