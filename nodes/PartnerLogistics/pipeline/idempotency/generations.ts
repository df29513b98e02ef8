/**
 * Generations by chain: how often something happened that must change the next Idempotency-Key of
 * the chain. A key chain's definitive refusals (so a try after a fix is judged afresh, even by an
 * API replaying refusals), and a node run's input finished (so a later run of it is new).
 */
export type Generations = Record<string, number>;

/** One place the memory is kept, bounded: the chains raised longest ago are forgotten first. */
export interface GenerationPlace {
	/** The generation held for `chain`, if any: reading never creates anything. */
	generation(chain: string): number | undefined;
	/** Holds `generation` for `chain`, as the newest entry. */
	raise(chain: string, generation: number): void;
}

/** A place kept as a plain record, changed in place or, with `replace`, as a copy (staticPlace). */
export function recordPlace(
	bound: number,
	read: () => Generations | undefined,
	replace?: (held: Generations) => void,
): GenerationPlace {
	return {
		generation: (chain) => read()?.[chain],
		raise: (chain, generation) => {
			const held = replace ? { ...read() } : (read() ?? {});
			// Written last, so the bound forgets the chains raised longest ago first.
			delete held[chain];
			held[chain] = generation;
			const chains = Object.keys(held);
			for (const old of chains.slice(0, Math.max(0, chains.length - bound))) delete held[old];
			replace?.(held);
		},
	};
}

/**
 * Generations over several places, read as their highest: each reaches some of the paths n8n runs
 * the node on (see `runKeys`). Losing one's record errs towards an older key: the API answers it
 * with what it did for it, never with a second booking, payment or case.
 */
export class GenerationMemory {
	constructor(private readonly places: GenerationPlace[]) {}

	generation(chain: string): number {
		return Math.max(0, ...this.places.map((place) => place.generation(chain) ?? 0));
	}

	/** The chain's key of `generation` is spent: the next is one later, never moved back. */
	raise(chain: string, generation: number): void {
		for (const place of this.places) {
			place.raise(chain, Math.max(place.generation(chain) ?? 0, generation + 1));
		}
	}
}
