/** Every kind of process memory made (processMemory.ts makes them all), to count them. */
const kinds: Array<ProcessMap<unknown>> = [];

type Bound<V> = { max: number; inUse?: (value: V) => boolean };

/** A bounded map, least recently used first out past `max` entries, never one still `inUse`. */
export class ProcessMap<V> {
	private readonly entries = new Map<string, V>();

	constructor(
		readonly kind: string,
		private readonly bound: Bound<V>,
	) {}

	get(id: string): V | undefined {
		return this.entries.get(id);
	}

	/** The entry of `id`, made by `make` on first use, and now the one used last. */
	use(id: string, make: () => V): V {
		const value = this.entries.get(id) ?? make();
		this.set(id, value);
		return value;
	}

	set(id: string, value: V): void {
		this.entries.delete(id);
		this.entries.set(id, value);
		if (this.entries.size <= this.bound.max) return;
		for (const [oldest, held] of this.entries) {
			if (this.bound.inUse?.(held)) continue;
			this.entries.delete(oldest);
			if (this.entries.size <= this.bound.max) return;
		}
	}

	delete(id: string): void {
		this.entries.delete(id);
	}

	get size(): number {
		return this.entries.size;
	}
}

export function processMap<V>(kind: string, bound: Bound<V>): ProcessMap<V> {
	const map = new ProcessMap(kind, bound);
	kinds.push(map as ProcessMap<unknown>);
	return map;
}

/** How many entries each kind holds now, e.g. to show that a dry run left nothing behind. */
export function processMemorySizes(): Record<string, number> {
	const sizes: Record<string, number> = {};
	for (const { kind, size } of kinds) sizes[kind] = (sizes[kind] ?? 0) + size;
	return sizes;
}
