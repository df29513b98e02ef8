import { createHash } from 'node:crypto';
import { sleep } from 'n8n-workflow';

import { processMap } from '../../shared/processMemory';
import { KeyLimit, type Clock } from './keyLimit';
import { ApiKeyPacer, RunPacer, type PacerSettings } from './queue';

export type { Answer, Start } from './keyLimit';
export type { PacerSettings, RunPacer } from './queue';
export { rateHeadersOf } from './rateHeaders';

const clock: Clock = { now: () => Date.now(), wait: async (ms) => await sleep(ms) };

/**
 * What this n8n process learned of each API key's limit, and the queue of its starts, shared by
 * every run of the node, every poll and the hub picker on that key: all their requests count
 * against the one limit the API keeps for it. By API (base URL) and a hash of the key, never the
 * key itself; past the bound, the key used longest ago with nothing in flight is forgotten.
 */
const apiKeyPacers = processMap<ApiKeyPacer>('rate limits, by API and API key', {
	max: 100,
	inUse: (pacer) => !pacer.idle,
});

/**
 * A run's (or a poll's, or the hub picker's) place among the senders on its API key: it waits for
 * the key's limit and its own ceilings (`settings`), and is withdrawn when `signal` aborts.
 */
export function runPacer(
	baseUrl: string,
	apiKey: string,
	settings: PacerSettings,
	signal?: AbortSignal,
): RunPacer {
	const id = `${baseUrl} ${createHash('sha256').update(apiKey).digest('base64url')}`;
	const key = apiKeyPacers.use(id, () => new ApiKeyPacer(new KeyLimit(clock), clock));
	return new RunPacer(key, settings, clock, signal);
}
