/**
 * How often the API definitively refused an action on a referent, by chain: the generation of its
 * next Idempotency-Key, so a try after a fix is judged afresh even by an API replaying refusals.
 */
export type Generations = Record<string, number>;

/** One place the memory is kept, bounded: the chains refused longest ago are forgotten first. */
export interface RefusalPlace {
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
): RefusalPlace {
	return {
		generation: (chain) => read()?.[chain],
		raise: (chain, generation) => {
			const held = replace ? { ...read() } : (read() ?? {});
			// Written last, so the bound forgets the chains refused longest ago first.
			delete held[chain];
			held[chain] = generation;
			const chains = Object.keys(held);
			for (const old of chains.slice(0, Math.max(0, chains.length - bound))) delete held[old];
			replace?.(held);
		},
	};
}

/**
 * Refusals over several places, read as their highest generation: each reaches some of the paths
 * n8n runs the node on (see `runKeys`). Losing one's record is safe: the API answers that key with
 * its refusal again, never with a second booking or payment.
 */
export class RefusalMemory {
	constructor(private readonly places: RefusalPlace[]) {}

	generation(chain: string): number {
		return Math.max(0, ...this.places.map((place) => place.generation(chain) ?? 0));
	}

	/** The chain's key of `generation` was refused: the next is one later, never moved back. */
	refused(chain: string, generation: number): void {
		for (const place of this.places) {
			place.raise(chain, Math.max(place.generation(chain) ?? 0, generation + 1));
		}
	}
}
