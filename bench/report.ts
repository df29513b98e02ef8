// Shared by the benches: timing, summary figures, and how a bench says it failed.

/**
 * Thrown by a bench whose checks failed: the section is still printed, and `npm run bench`
 * exits non-zero.
 */
export class BenchFailure extends Error {
	constructor(
		readonly section: string,
		readonly problems: string[],
	) {
		super(problems.join('; '));
	}
}

/** Milliseconds `fn` took, with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const start = process.hrtime.bigint();
	const value = await fn();
	return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const ms = (value: number) => `${Math.round(value)} ms`;
export const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

/** JSON with sorted keys, so two bodies compare equal whatever their key order. */
export function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** Lets `npx ts-node --prefer-ts-exts bench/<name>.ts` run one bench alone and print its section. */
export function runWhenMain(caller: NodeModule, run: () => Promise<string>) {
	if (require.main !== caller) return;
	void run().then(
		(text) => console.log(text),
		(error: unknown) => {
			console.log(error instanceof BenchFailure ? error.section : error);
			process.exitCode = 1;
		},
	);
}
