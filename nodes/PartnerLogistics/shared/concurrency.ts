/**
 * Calls `work` for each index below `count`, in order, at most `concurrency` at once, none once
 * `stop()`; `beforeEach` runs before each index is taken (turn-taking). `work` handles its errors.
 */
export async function eachConcurrently(
	count: number,
	concurrency: number,
	work: (index: number) => Promise<void>,
	options: { stop?: () => boolean; beforeEach?: () => Promise<void> } = {},
): Promise<void> {
	let next = 0;
	const worker = async () => {
		for (;;) {
			await options.beforeEach?.();
			if (next >= count || options.stop?.()) return;
			await work(next++);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
