import type { ApiKeyPacer } from '../pipeline/rateLimit/pacer';
import type { SecretCacheEntry } from '../webhook/secrets';
import { processMap } from './processMap';

export { ProcessMap, processMemorySizes } from './processMap';

/**
 * What this n8n process keeps beyond a run, keyed by what it belongs to. A restart loses it at no
 * cost but a slower start: what must survive lives in n8n's node context and static data.
 */
export const PROCESS_MEMORY = {
	/** Each API key's learned limit and queue of starts; one with requests in flight stays. */
	apiKeyPacers: processMap<ApiKeyPacer>('rate limits, by API and API key', {
		max: 100,
		inUse: (pacer) => !pacer.idle,
	}),
	/** The last request under each Idempotency-Key until it ends: what is in flight is the bound. */
	requestTurns: processMap<Promise<unknown>>('requests in turn, by API and Idempotency-Key', {
		max: Infinity,
	}),
	refusedChains: processMap<number>('refused key chains', { max: 10_000 }),
	finishedRuns: processMap<number>('finished runs, by input', { max: 10_000 }),
	webhookSecrets: processMap<SecretCacheEntry>('webhook HMAC keys, by credential', { max: 1_000 }),
	/** Past 1,000 triggers, the one that received least lately is forgotten. */
	webhookEventIds: processMap<Map<string, number>>('webhook event ids, by trigger', {
		max: 1_000,
	}),
	/** Each leaves when its poll ends: the polls running at once are the bound. */
	pollsUnderWay: processMap<true>('polls under way, by trigger', { max: Infinity }),
	pollMemoriesAwaitingCommit: processMap<{ generation: number; at: number }>(
		'memories awaiting their commit, by trigger',
		{ max: 10_000 },
	),
};
