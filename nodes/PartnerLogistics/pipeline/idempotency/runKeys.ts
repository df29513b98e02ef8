import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { PROCESS_MEMORY } from '../../shared/processMemory';
import type { GenerationMemory, Generations } from './generations';

/** What the node remembers of its keys, in n8n's node context (runKeys says where it reaches). */
export type KeyMemory = {
	/** Digest of a key sent -> digest of the body sent with it: what the API holds for that key. */
	sent: Record<string, string>;
	/** Per key chain, how often the API definitively refused it (absent in older contexts). */
	chains?: Generations;
};

/** What a node run's keys are made of, and where they read and raise their generations. */
export interface RunScope {
	instanceId: string;
	workflowId: string;
	nodeId: string;
	runIndex: number;
	/** `resource.operation`, so quote and booking of one item never share a key. */
	action: string;
	/** The API this run sends to, as the credential's Base URL. */
	api: string;
	refusals: GenerationMemory;
	/** Per node run's input, how many runs of it finished. */
	runs: GenerationMemory;
	/** The run's input items, as JSON: read on the first creation key only. */
	input: () => string;
	/** Keeps the memory in the node context, on its first change. */
	keep: () => void;
}

/**
 * Whether a failure spends the item's key: a definitive refusal (an API may replay it, as Stripe
 * does). 409 (the first holds), 408, 429 (not judged), 5xx and no status (unknown) keep it.
 */
export function refusedForGood(error: unknown): boolean {
	const status = Number((error as { httpCode?: unknown } | undefined)?.httpCode);
	return status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

/**
 * The last request under each key in this process, by API: requests sharing a key go one after the
 * other from any run (two rows booking one quote), the later getting the API's replay, not a 409.
 */
const turns = PROCESS_MEMORY.requestTurns;

/** The Idempotency-Keys of one node run, and what was sent under them. */
export class RunKeys {
	/** The keys given out in this run: their chain and generation. */
	private readonly given = new Map<string, { chain: string; generation: number }>();
	/** The keys whose body this run recorded first (`sending`). */
	private readonly recordedHere = new Set<string>();
	/** The run's input chain and its generation, once a creation key needs them. */
	private run?: { chain: string; generation: number };
	/** Whether anything was sent: a dry run finishes nothing. */
	private sentAny = false;

	constructor(
		private readonly memory: KeyMemory,
		private readonly scope: RunScope,
	) {}

	/**
	 * The item's default key: a digest (no workflow detail reaches the API's logs), a generation on
	 * per definitive refusal of its chain. An action on something that exists (booking a quote) is
	 * keyed by the API, the action and the referent: every run asking again gets the first answer.
	 * A creation is keyed by its node run and item: the same for every try (even n8n's Retry of an
	 * execution it crashed in), else different (two identical orders are two quotes).
	 */
	keyOf(itemIndex: number, referent?: string[]): string {
		const { instanceId, workflowId, nodeId, runIndex, action, api } = this.scope;
		const parts = referent
			? ['referent', apiIdentity(api), action, ...referent]
			: [instanceId, workflowId, this.runId(), nodeId, runIndex, itemIndex, action];
		const derive = (generation: number) =>
			`n8n-${action}-${digest((generation ? [...parts, generation] : parts).join('\u0000'), 40)}`;
		const first = derive(0);
		const chain = `${action}:${digest(first)}`;
		const generation = this.scope.refusals.generation(chain);
		const key = generation ? derive(generation) : first;
		this.given.set(key, { chain, generation });
		return key;
	}

	/** The run as a key part: its input, and how many runs of that input finished before it. */
	private runId(): string {
		if (!this.run) {
			const { workflowId, nodeId, runIndex } = this.scope;
			const chain = `run:${digest([workflowId, nodeId, runIndex, this.scope.input()].join('\u0000'))}`;
			this.run = { chain, generation: this.scope.runs.generation(chain) };
		}
		return `${this.run.chain}:${this.run.generation}`;
	}

	/** Every item of the run is done: a later run of the same input makes its creations anew. */
	finished(): void {
		if (this.run && this.sentAny) this.scope.runs.raise(this.run.chain, this.run.generation);
	}

	/**
	 * Records that `body` is being sent under `key`. True when an earlier run (the execution this one
	 * retries) sent it with another body: the API holds that one and will not take this one.
	 */
	sending(key: string, body: IDataObject | undefined): boolean {
		const keyDigest = digest(key);
		const bodyDigest = digest(JSON.stringify(body ?? {}));
		const held = this.memory.sent[keyDigest];
		this.sentAny = true;
		if (held === undefined) {
			this.memory.sent[keyDigest] = bodyDigest;
			this.recordedHere.add(keyDigest);
			this.scope.keep();
		}
		return held !== undefined && held !== bodyDigest && !this.recordedHere.has(keyDigest);
	}

	/** Sends under `key` in turn (see `turns`); a definitive refusal spends the key. */
	async send<T>(key: string, send: () => Promise<T>): Promise<T> {
		const id = `${apiIdentity(this.scope.api)}\u0000${key}`;
		// After the one before under the key, however that one ended.
		const mine = Promise.resolve(turns.get(id)).then(send, send);
		// Watched, not caught: the failure goes on to the item as it is.
		mine.catch((error: unknown) => refusedForGood(error) && this.refused(key));
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
		if (given) this.scope.refusals.raise(given.chain, given.generation);
		delete this.memory.sent[digest(key)];
	}
}

/**
 * A SHA-256 digest: 40 hex digits in a key (its parts joined by a character none holds); else 16
 * base64url characters, enough to tell two keys or bodies apart, small in the saved execution.
 */
function digest(text: string, hexDigits?: number): string {
	const hash = createHash('sha256').update(text);
	return hexDigits ? hash.digest('hex').slice(0, hexDigits) : hash.digest('base64url').slice(0, 16);
}

/** The API as a key part: `https://API.example/api/v1/` and `https://api.example/api/v1` agree. */
export function apiIdentity(baseUrl: string): string {
	const trimmed = baseUrl.trim();
	try {
		const url = new URL(trimmed);
		return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		return trimmed.replace(/\/+$/, '');
	}
}
