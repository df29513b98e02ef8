import { createHash } from 'node:crypto';
import { sleep } from 'n8n-workflow';

import { PROCESS_MEMORY } from '../../shared/processMemory';
import { ApiKeyPacer, RunPacer, type Clock, type PacerSettings } from './pacer';

export type { PacerSettings, RunPacer } from './pacer';
export { rateHeadersOf } from './rateHeaders';

const clock: Clock = { now: () => Date.now(), wait: async (ms) => await sleep(ms) };

/**
 * A run's (poll's, picker's) place among its API key's senders, withdrawn when `signal` aborts. Every
 * run, poll and hub picker on one API key shares its pacer: all count against the API's one limit
 * for it. Found by API and a hash of the key, never the key.
 */
export function runPacer(
	baseUrl: string,
	apiKey: string,
	settings: PacerSettings,
	signal?: AbortSignal,
): RunPacer {
	const id = `${baseUrl} ${createHash('sha256').update(apiKey).digest('base64url')}`;
	const pacer = PROCESS_MEMORY.apiKeyPacers.use(id, () => new ApiKeyPacer(clock));
	return new RunPacer(pacer, settings, clock, signal);
}
