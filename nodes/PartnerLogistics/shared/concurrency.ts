/**
 * Calls `work` for each index from 0 to `count - 1`, in order, with at most `concurrency` calls
 * under way at once. No further call starts once `stop()` is true; `beforeEach` runs before each
 * index is taken (a run's turn-taking). Errors are the caller's: `work` handles its own.
 */
export async function eachConcurrently(
	count: number,
	concurrency: number,
	work: (index: number) => Promise<void>,
	{
		stop = () => false,
		beforeEach,
	}: { stop?: () => boolean; beforeEach?: () => Promise<void> } = {},
): Promise<void> {
	let next = 0;
	const worker = async () => {
		for (;;) {
			await beforeEach?.();
			if (next >= count || stop()) return;
			await work(next++);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
