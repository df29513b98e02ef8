/** `work` (handling its own errors) on each index below `count` in order, `concurrency` at once. */
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
