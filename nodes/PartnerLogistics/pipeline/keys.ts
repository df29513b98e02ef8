import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

export interface IdempotencyScope {
	instanceId: string;
	workflowId: string;
	/** The execution the keys belong to: for an execution retry, the one it retries (`KeyMemory.seed`). */
	executionId: string;
	nodeId: string;
	runIndex: number;
	itemIndex: number;
	/** `resource.operation`, so quote and booking of one item never share a key. */
	action: string;
	/** Raised each time the API definitively refused the item, so a retry after a fix is new to it. */
	generation?: number;
}

/**
 * The default Idempotency-Key: the same for every try of one item in one node run (n8n's Retry
 * On Fail, our own 429/503 retries, n8n's Retry of the failed execution), different for another
 * item, run, node, action, workflow, execution, generation or n8n instance. Hashed so no workflow
 * detail leaks into API logs.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	const parts: Array<string | number> = [
		scope.instanceId,
		scope.workflowId,
		scope.executionId,
		scope.nodeId,
		scope.runIndex,
		scope.itemIndex,
		scope.action,
	];
	if (scope.generation) parts.push(scope.generation);
	const digest = createHash('sha256').update(parts.join('\u0000')).digest('hex');
	return `n8n-${scope.action}-${digest.slice(0, 40)}`;
}

/**
 * What the node remembers of its keys, in n8n's node context: n8n saves it with the execution and
 * hands it back when the user retries a failed execution (either kind, in queue mode too), and
 * nowhere else (a new execution, a manual or partial run start with an empty context).
 */
export interface KeyMemory {
	/** The execution that first ran the node; its retries derive their keys from it. */
	seed: string;
	/** Digest of a key sent -> digest of the body sent with it: what the API holds for that key. */
	sent: Record<string, string>;
	/** Per item (`runIndex:itemIndex`), how often the API definitively refused it. */
	refused: Record<string, number>;
}

/** Where the memory lives in the node's context. */
const MEMORY = 'partnerLogisticsIdempotency';

/**
 * The answer statuses after which an item is sent under a fresh key when the user runs it again:
 * a definitive refusal (nothing was done, and an API may replay a refusal for its key, as Stripe
 * does). A success, a 409 (the key's first request holds), a 408 or 429 (not judged) and a 5xx or
 * a broken connection (the outcome is unknown) keep the key.
 */
export function refusesForGood(status: number): boolean {
	return status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

/** The Idempotency-Keys of one node run, and what was sent under them. */
export class RunKeys {
	constructor(
		private readonly memory: KeyMemory,
		private readonly scope: Omit<IdempotencyScope, 'itemIndex' | 'executionId' | 'generation'>,
	) {}

	/** The item's default key. */
	keyOf(itemIndex: number): string {
		return deriveIdempotencyKey({
			...this.scope,
			executionId: this.memory.seed,
			itemIndex,
			generation: this.memory.refused[this.itemId(itemIndex)],
		});
	}

	/**
	 * Records that `body` is being sent under `key`. True when an earlier run (the execution this
	 * one retries) sent this key with another body: the API holds that one, so it will not take
	 * this one.
	 */
	sending(key: string, body: IDataObject | undefined): boolean {
		const keyDigest = digestOf(key);
		const bodyDigest = digestOf(JSON.stringify(body ?? {}));
		const held = this.memory.sent[keyDigest];
		if (held === undefined) this.memory.sent[keyDigest] = bodyDigest;
		return held !== undefined && held !== bodyDigest;
	}

	/** The API refused the item for good: the key is spent, the next run of the item gets a new one. */
	refused(itemIndex: number, key: string): void {
		const id = this.itemId(itemIndex);
		this.memory.refused[id] = (this.memory.refused[id] ?? 0) + 1;
		delete this.memory.sent[digestOf(key)];
	}

	private itemId(itemIndex: number): string {
		return `${this.scope.runIndex}:${itemIndex}`;
	}
}

/** A short digest: enough to tell two keys or two bodies apart, small in the saved execution. */
function digestOf(text: string): string {
	return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/**
 * The keys of a node run of `action`. The memory is taken from the node's context, or started
 * there with this execution as the seed (a call outside any execution, such as an MCP tool call
 * answered by n8n's webhook process, gets a random one).
 */
export function runKeys(context: IExecuteFunctions, action: string): RunKeys {
	const fresh = (): KeyMemory => ({
		seed: context.getExecutionId() || randomUUID(),
		sent: {},
		refused: {},
	});
	let memory: KeyMemory;
	try {
		const nodeContext = context.getContext('node');
		memory = (nodeContext[MEMORY] as KeyMemory | undefined) ?? (nodeContext[MEMORY] = fresh());
	} catch {
		// n8n keeps no context for this run: its keys hold for this run only.
		memory = fresh();
	}
	return new RunKeys(memory, {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		nodeId: context.getNode().id,
		runIndex: context.getWorkflowDataProxy(0).$runIndex as number,
		action,
	});
}
