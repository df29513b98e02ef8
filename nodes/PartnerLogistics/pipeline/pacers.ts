import { createHash } from 'node:crypto';
import { sleep } from 'n8n-workflow';

import { KeyLimit, type Clock } from './keyLimit';
import { KeyPacer } from './pacer';

/** Keys remembered at once; beyond it the one idle longest is forgotten. */
const MAX_KEYS = 100;

const clock: Clock = { now: () => Date.now(), wait: async (ms) => await sleep(ms) };

/**
 * What this n8n process learned of each API key's limit, and the queue of its starts: one
 * KeyPacer per API (base URL) and key, shared by every run of the node, every poll of the polling
 * trigger and the hub picker, so all their requests count against the one limit the API keeps
 * for the key. Keyed by a hash of the key: the key itself is never kept. Bounded: past MAX_KEYS,
 * the key idle longest (nothing waiting, nothing in flight) is forgotten.
 */
const pacers = new Map<string, KeyPacer>();

/** The key's pacer in this process, made on first use. */
export function pacerOf(baseUrl: string, apiKey: string): KeyPacer {
	const id = `${baseUrl} ${createHash('sha256').update(apiKey).digest('base64url')}`;
	let pacer = pacers.get(id);
	if (!pacer) {
		pacer = new KeyPacer(new KeyLimit(clock), clock);
		pacers.set(id, pacer);
		if (pacers.size > MAX_KEYS) forgetIdlest();
	}
	return pacer;
}

/** The clock every pacer of the process runs on. */
export const pacerClock = clock;

function forgetIdlest(): void {
	let idlest: [string, KeyPacer] | undefined;
	for (const entry of pacers) {
		if (entry[1].idle && (!idlest || entry[1].limit.lastUsedAt < idlest[1].limit.lastUsedAt)) {
			idlest = entry;
		}
	}
	if (idlest) pacers.delete(idlest[0]);
}
