import { createHash } from 'node:crypto';

/** What the default key of an item that creates something is derived from. */
export interface IdempotencyScope {
	instanceId: string;
	workflowId: string;
	/**
	 * The node run the keys belong to: a digest of its input items and how many runs of that input
	 * finished before it (`runKeys`). An execution's Retry, even of one n8n crashed in, is handed the
	 * same input and finished nothing, so it gets the same keys; a later run of the input new ones.
	 */
	run: string;
	nodeId: string;
	runIndex: number;
	itemIndex: number;
	/** `resource.operation`, so quote and booking of one item never share a key. */
	action: string;
}

/**
 * The default Idempotency-Key of a creation: the same for every try of one item in one node run
 * (Retry On Fail, our 429/503 retries, n8n's Retry of the execution), else different (two identical
 * orders are two quotes); plus a generation per definitive refusal of the item (GenerationMemory).
 * Hashed so no workflow detail leaks into API logs.
 */
export function deriveIdempotencyKey(scope: IdempotencyScope, generation = 0): string {
	const { instanceId, workflowId, run, nodeId, runIndex, itemIndex, action } = scope;
	const parts = [instanceId, workflowId, run, nodeId, runIndex, itemIndex, action];
	if (generation) parts.push(generation);
	return `n8n-${action}-${hex(parts)}`;
}

/** What the default key of an action on something that exists is derived from. */
export interface ReferentScope {
	/** The credential's Base URL: the API the action is sent to. */
	api: string;
	action: string;
	/** The values naming what the action acts on (OperationSpec.referent), e.g. the quote ID. */
	referent: string[];
}

/**
 * The default Idempotency-Key of an action on something that exists (booking a quote, paying a
 * booking): from the API, the action and its referent, never the execution, so every run that asks
 * again gets the API's first answer; plus a generation per definitive refusal (GenerationMemory).
 */
export function deriveReferentKey(scope: ReferentScope, generation = 0): string {
	const parts = ['referent', apiIdentity(scope.api), scope.action, ...scope.referent];
	if (generation) parts.push(String(generation));
	return `n8n-${scope.action}-${hex(parts)}`;
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

/** 40 hex digits of a SHA-256 over the parts, which cannot run into each other. */
function hex(parts: Array<string | number>): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
}
