import type { ProcessMap } from '../../shared/processMemory';

/**
 * Per chain, how often something happened that changes its next Idempotency-Key: a definitive
 * refusal (a fixed try is judged afresh), a node run's input finished (a later run of it is new).
 */
export type Generations = Record<string, number>;

/** One place the memory is kept (a process map is one), bounded; reading creates nothing. */
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
 * Generations over several places (`runKeys` says which paths each reaches), read as their highest.
 * Losing one errs towards an older key, which the API answers with what it did, never a second one.
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
