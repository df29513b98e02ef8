import { createHash } from 'node:crypto';
import { sleep } from 'n8n-workflow';

import { processMap } from '../../shared/processMemory';
import { ApiKeyPacer, RunPacer, type Clock, type PacerSettings } from './pacer';

export type { PacerSettings, RunPacer } from './pacer';
export { rateHeadersOf } from './rateHeaders';

const clock: Clock = { now: () => Date.now(), wait: async (ms) => await sleep(ms) };

/**
 * Each API key's learned limit and queue of starts, shared by every run, poll and hub picker on
 * it: all count against the API's one limit for it. By API and a hash of the key, never the key.
 */
const apiKeyPacers = processMap<ApiKeyPacer>('rate limits, by API and API key', {
	max: 100,
	inUse: (pacer) => !pacer.idle,
});

/** A run's (poll's, picker's) place among its API key's senders; withdrawn when `signal` aborts. */
export function runPacer(
	baseUrl: string,
	apiKey: string,
	settings: PacerSettings,
	signal?: AbortSignal,
): RunPacer {
	const id = `${baseUrl} ${createHash('sha256').update(apiKey).digest('base64url')}`;
	const apiKeyPacer = apiKeyPacers.use(id, () => new ApiKeyPacer(clock));
	return new RunPacer(apiKeyPacer, settings, clock, signal);
}
