/**
 * How often the API definitively refused an action on one referent (a quote to book, a booking to
 * pay), by chain: the generation of that referent's next Idempotency-Key. Each refusal spends a
 * key, so the next try after a fix is judged afresh even by an API that replays refusals.
 */
export type Generations = Record<string, number>;

/** One place the memory is kept, with its bound (oldest refusals are forgotten first). */
export interface RefusalPlace {
	bound: number;
	/** What is held there, if anything yet: reading never creates it. */
	read(): Generations | undefined;
	/** Changes what is held there (created on the first refusal). */
	write(change: (held: Generations) => void): void;
}

/**
 * The memory of refusals over several places at once, read as their highest generation: each
 * place reaches some paths n8n runs the node on and misses others (RunKeys says which). Losing
 * a place's record is safe: the key then is one the API refused, and it answers with that
 * refusal again, never with a second booking or payment.
 */
export class RefusalMemory {
	constructor(private readonly places: RefusalPlace[]) {}

	generation(chain: string): number {
		return Math.max(0, ...this.places.map((place) => place.read()?.[chain] ?? 0));
	}

	/**
	 * The API refused the chain's key of `generation`: its next key is one later. Kept as the
	 * highest seen, so a run that read an older generation cannot move the chain back.
	 */
	refused(chain: string, generation: number): void {
		for (const place of this.places) {
			place.write((held) => {
				const next = Math.max(held[chain] ?? 0, generation + 1);
				// Written last, so the bound forgets the chains refused longest ago first.
				delete held[chain];
				held[chain] = next;
				forgetOldest(held, place.bound);
			});
		}
	}
}

/** Keeps the newest `bound` entries (objects keep insertion order for non-numeric keys). */
function forgetOldest(held: Generations, bound: number): void {
	const chains = Object.keys(held);
	for (const chain of chains.slice(0, Math.max(0, chains.length - bound))) delete held[chain];
}
