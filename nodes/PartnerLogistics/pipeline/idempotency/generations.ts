import type { ProcessMap } from '../../shared/processMemory';

/** Per key chain, how often it moved on: a definitive refusal, or a finished run of its input. */
export type Generations = Record<string, number>;

/** One place the memory is kept (a process map is one), bounded; reading creates nothing. */
export type GenerationPlace = Pick<ProcessMap<number>, 'get' | 'set'>;

/**
 * The record at `holder[name]`, bounded, replaced whole when raised: n8n notices changes to static
 * data inside objects there at the start, not in ones added since; `written` then keeps the holder.
 */
export function recordPlace(
	holder: Record<string, unknown>,
	name: string,
	bound: number,
	written?: () => void,
): GenerationPlace {
	const read = () => holder[name] as Generations | undefined;
	return {
		get: (chain) => read()?.[chain],
		set: (chain, generation) => {
			const held = { ...read() };
			// Written last, so the bound forgets the chains raised longest ago first.
			delete held[chain];
			held[chain] = generation;
			const chains = Object.keys(held);
			for (const old of chains.slice(0, Math.max(0, chains.length - bound))) delete held[old];
			holder[name] = held;
			written?.();
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
		for (const place of this.places)
			place.set(chain, Math.max(place.get(chain) ?? 0, generation + 1));
	}
}
