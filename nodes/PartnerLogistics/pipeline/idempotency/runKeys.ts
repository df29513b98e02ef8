import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { processMap } from '../../shared/processMemory';
import {
	apiIdentity,
	deriveIdempotencyKey,
	deriveReferentKey,
	type IdempotencyScope,
} from './keyDerivation';
import type { GenerationMemory, Generations } from './generations';

/** What the node remembers of its keys, in n8n's node context (runKeys says where it reaches). */
export interface KeyMemory {
	/** Digest of a key sent -> digest of the body sent with it: what the API holds for that key. */
	sent: Record<string, string>;
	/** Per key chain, how often the API definitively refused it (absent in older contexts). */
	chains?: Generations;
}

/** Where a run's keys read and raise their generations (`runKeys` makes them). */
export interface KeyPlaces {
	/** The API this run sends to, as the credential's Base URL. */
	api: string;
	/** Per key chain, its definitive refusals. */
	refusals: GenerationMemory;
	/** Per node run's input, how many runs of it finished. */
	runs: GenerationMemory;
	/** The run's input items, as JSON: read on the first creation key only. */
	input: () => string;
	/** Keeps the memory in the node context, on its first change. */
	keep: () => void;
}

/**
 * Whether a failure spends the item's key: a definitive refusal (nothing was done, and an API may
 * replay a refusal for its key, as Stripe does). 409 (the first request holds), 408 and 429 (not
 * judged), 5xx and no status (outcome unknown) keep it, as a success does.
 */
export function refusedForGood(error: unknown): boolean {
	const status = Number((error as { httpCode?: unknown } | undefined)?.httpCode);
	return status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

/**
 * The last request under each key in this process, by API, until it ends: requests sharing a key
 * go one after the other from any run (two rows booking one quote, a webhook delivered twice, an
 * agent's parallel tool calls), the later getting the API's replay, not a 409 for one in progress.
 */
const turns = processMap<Promise<unknown>>('requests in turn, by API and Idempotency-Key', {
	// Each entry leaves when its request ends: what is in flight is the bound.
	max: Infinity,
});

/** The Idempotency-Keys of one node run, and what was sent under them. */
export class RunKeys {
	/** The keys given out in this run: their chain, generation, and whether a referent names it. */
	private readonly given = new Map<
		string,
		{ chain: string; generation: number; referent: boolean }
	>();
	/** The keys whose body this run recorded first (`sending`). */
	private readonly recordedHere = new Set<string>();
	/** The API this run sends to, as `turns` tells APIs apart. */
	private readonly api: string;
	/** The run's input chain and its generation, once a creation key needs them. */
	private run?: { chain: string; generation: number };
	/** Whether anything was sent: a dry run finishes nothing. */
	private sentAny = false;

	constructor(
		private readonly memory: KeyMemory,
		private readonly scope: Omit<IdempotencyScope, 'itemIndex' | 'run'>,
		private readonly places: KeyPlaces,
	) {
		this.api = apiIdentity(places.api);
	}

	/** The item's default key: by its referent when the action has one, else by the run's input. */
	keyOf(itemIndex: number, referent?: string[]): string {
		const derive = referent
			? (generation?: number) =>
					deriveReferentKey(
						{ api: this.places.api, action: this.scope.action, referent },
						generation,
					)
			: (generation?: number) =>
					deriveIdempotencyKey({ ...this.scope, run: this.runId(), itemIndex }, generation);
		const first = derive();
		const chain = `${this.scope.action}:${digestOf(first)}`;
		const generation = this.places.refusals.generation(chain);
		const key = generation ? derive(generation) : first;
		this.given.set(key, { chain, generation, referent: !!referent });
		return key;
	}

	/** The run as a key part: its input, and how many runs of that input finished before it. */
	private runId(): string {
		if (!this.run) {
			const { workflowId, nodeId, runIndex } = this.scope;
			const chain = `run:${digestOf([workflowId, nodeId, runIndex, this.places.input()].join('\u0000'))}`;
			this.run = { chain, generation: this.places.runs.generation(chain) };
		}
		return `${this.run.chain}:${this.run.generation}`;
	}

	/** Every item of the run is done: a later run of the same input makes its creations anew. */
	finished(): void {
		if (this.run && this.sentAny) this.places.runs.raise(this.run.chain, this.run.generation);
	}

	/**
	 * Records that `body` is being sent under `key`. True when an earlier run (the execution this one
	 * retries) sent it with another body: the API holds that one and will not take this one.
	 */
	sending(key: string, body: IDataObject | undefined): boolean {
		const keyDigest = digestOf(key);
		const bodyDigest = digestOf(JSON.stringify(body ?? {}));
		const held = this.memory.sent[keyDigest];
		this.sentAny = true;
		if (held === undefined) {
			this.memory.sent[keyDigest] = bodyDigest;
			this.recordedHere.add(keyDigest);
			this.places.keep();
		}
		return held !== undefined && held !== bodyDigest && !this.recordedHere.has(keyDigest);
	}

	/** Sends under `key` in turn (see `turns`); a definitive refusal spends the key. */
	async send<T>(key: string, send: () => Promise<T>): Promise<T> {
		return await this.inTurn(key, async () => {
			const sent = send();
			// Watched, not caught: the failure goes on to the item as it is.
			sent.catch((error: unknown) => refusedForGood(error) && this.refused(key));
			return await sent;
		});
	}

	private async inTurn<T>(key: string, send: () => Promise<T>): Promise<T> {
		const id = `${this.api}\u0000${key}`;
		const before = turns.get(id);
		const mine = (async () => {
			if (before) await before.catch(() => undefined);
			return await send();
		})();
		turns.set(id, mine);
		try {
			return await mine;
		} finally {
			if (turns.get(id) === mine) turns.delete(id);
		}
	}

	/** The API refused the key for good: it is spent, the chain's next try gets a new one. */
	refused(key: string): void {
		const given = this.given.get(key);
		if (given) this.places.refusals.raise(given.chain, given.generation);
		delete this.memory.sent[digestOf(key)];
	}

	isReferentKey(key: string): boolean {
		return this.given.get(key)?.referent === true;
	}
}

/** A short digest: enough to tell two keys or two bodies apart, small in the saved execution. */
function digestOf(text: string): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
