import type { ProcessMap } from '../../shared/processMemory';

/**
 * Generations by chain: how often something happened that must change the next Idempotency-Key of
 * the chain. A key chain's definitive refusals (so a try after a fix is judged afresh, even by an
 * API replaying refusals), and a node run's input finished (so a later run of it is new).
 */
export type Generations = Record<string, number>;

/**
 * One place the memory is kept (a process map is one), bounded: the chains raised longest ago are
 * forgotten first; reading never creates anything.
 */
export type GenerationPlace = Pick<ProcessMap<number>, 'get' | 'set'>;

/** A place kept as a plain record, changed in place or, with `replace`, as a copy (staticPlace). */
export function recordPlace(
	bound: number,
	read: () => Generations | undefined,
	replace?: (held: Generations) => void,
): GenerationPlace {
	return {
		get: (chain) => read()?.[chain],
		set: (chain, generation) => {
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
		return Math.max(0, ...this.places.map((place) => place.get(chain) ?? 0));
	}

	/** The chain's key of `generation` is spent: the next is one later, never moved back. */
	raise(chain: string, generation: number): void {
		for (const place of this.places) {
			place.set(chain, Math.max(place.get(chain) ?? 0, generation + 1));
		}
	}
}
