import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { processMap } from '../../shared/processMemory';
import {
	apiIdentity,
	deriveIdempotencyKey,
	deriveReferentKey,
	type IdempotencyScope,
	type ReferentScope,
} from './keyDerivation';
import type { Generations, RefusalMemory } from './refusedKeys';

/** What the node remembers of its keys, in n8n's node context (runKeys says where it reaches). */
export interface KeyMemory {
	/** The execution that first ran the node; its retries derive their keys from it. */
	seed: string;
	/** Digest of a key sent -> digest of the body sent with it: what the API holds for that key. */
	sent: Record<string, string>;
	/** Per item (`runIndex:itemIndex`), how often the API definitively refused it. */
	refused: Record<string, number>;
	/** Per referent chain, how often the API definitively refused it (absent in older contexts). */
	chains?: Generations;
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
	/** The referent keys given out in this run, with their chain and generation. */
	private readonly referentKeys = new Map<string, { chain: string; generation: number }>();
	/** The keys whose body this run recorded first (`sending`). */
	private readonly recordedHere = new Set<string>();
	/** The API this run sends to, as `turns` tells APIs apart. */
	private readonly api: string;

	constructor(
		private readonly memory: KeyMemory,
		private readonly scope: Omit<IdempotencyScope, 'itemIndex' | 'executionId' | 'generation'>,
		private readonly referents: { api: string; refusals: RefusalMemory },
	) {
		this.api = apiIdentity(referents.api);
	}

	/** The item's default key: by its referent when the action has one, else by the item. */
	keyOf(itemIndex: number, referent?: string[]): string {
		if (!referent) {
			return deriveIdempotencyKey({
				...this.scope,
				executionId: this.memory.seed,
				itemIndex,
				generation: this.memory.refused[this.itemId(itemIndex)],
			});
		}
		const scope: ReferentScope = { api: this.referents.api, action: this.scope.action, referent };
		const chain = `${this.scope.action}:${digestOf(deriveReferentKey(scope))}`;
		const generation = this.referents.refusals.generation(chain);
		const key = deriveReferentKey(scope, generation);
		this.referentKeys.set(key, { chain, generation });
		return key;
	}

	/**
	 * Records that `body` is being sent under `key`. True when an earlier run (the execution this one
	 * retries) sent it with another body: the API holds that one and will not take this one.
	 */
	sending(key: string, body: IDataObject | undefined): boolean {
		const keyDigest = digestOf(key);
		const bodyDigest = digestOf(JSON.stringify(body ?? {}));
		const held = this.memory.sent[keyDigest];
		if (held === undefined) {
			this.memory.sent[keyDigest] = bodyDigest;
			this.recordedHere.add(keyDigest);
		}
		return held !== undefined && held !== bodyDigest && !this.recordedHere.has(keyDigest);
	}

	/** Sends the item under `key` in turn (see `turns`); a definitive refusal spends the key. */
	async send<T>(itemIndex: number, key: string, send: () => Promise<T>): Promise<T> {
		return await this.inTurn(key, async () => {
			const sent = send();
			// Watched, not caught: the failure goes on to the item as it is.
			sent.catch((error: unknown) => refusedForGood(error) && this.refused(itemIndex, key));
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

	/** The API refused the item for good: the key is spent, the next try gets a new one. */
	refused(itemIndex: number, key: string): void {
		const referent = this.referentKeys.get(key);
		if (referent) {
			this.referents.refusals.refused(referent.chain, referent.generation);
		} else {
			const id = this.itemId(itemIndex);
			this.memory.refused[id] = (this.memory.refused[id] ?? 0) + 1;
		}
		delete this.memory.sent[digestOf(key)];
	}

	isReferentKey(key: string): boolean {
		return this.referentKeys.has(key);
	}

	private itemId(itemIndex: number): string {
		return `${this.scope.runIndex}:${itemIndex}`;
	}
}

/** A short digest: enough to tell two keys or two bodies apart, small in the saved execution. */
function digestOf(text: string): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
