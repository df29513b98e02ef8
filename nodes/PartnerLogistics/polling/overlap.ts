/**
 * The triggers of this n8n process with a poll under way. n8n starts a poll at each Poll Time even
 * while the previous one still runs (a slow API, many payment references); two polls reading the
 * same memory would emit the same changes twice, so the later one is skipped.
 */
const polling = new Set<string>();

/** Marks `scope` (a workflow's trigger node) as polling; false if a poll of it is under way. */
export function startPoll(scope: string): boolean {
	if (polling.has(scope)) return false;
	polling.add(scope);
	return true;
}

export function endPoll(scope: string): void {
	polling.delete(scope);
}
