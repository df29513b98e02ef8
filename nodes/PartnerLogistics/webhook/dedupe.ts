import { createHash } from 'node:crypto';

import { ProcessMap } from '../shared/processMap';
import { PROCESS_MEMORY } from '../shared/processMemory';

export const MAX_REMEMBERED_EVENTS = 10_000;

/** Event ids this n8n process saw per trigger (`scope`), at most `max` each, oldest out first. */
export class EventIdMemory {
	constructor(
		private readonly max = MAX_REMEMBERED_EVENTS,
		private readonly scopes = new ProcessMap<Map<string, number>>('event ids', { max: 1_000 }),
	) {}

	/** Records `id` until `until`: true, or false while a record holds (synchronous: one wins). */
	claim(scope: string, id: string, until: number, now: number): boolean {
		const seen = this.scopes.use(scope, () => new Map<string, number>());
		if ((seen.get(id) ?? now) > now) return false;
		// Deleted first, so a re-recorded id moves to the end of Map's insertion order.
		seen.delete(id);
		seen.set(id, until);
		for (const [oldest, expires] of seen) {
			if (seen.size <= this.max && expires > now) break;
			seen.delete(oldest);
		}
		return true;
	}
}

const eventIdMemory = new EventIdMemory(MAX_REMEMBERED_EVENTS, PROCESS_MEMORY.webhookEventIds);

/** Whether a verified delivery repeats an event `scope` still remembers; if not, records it. */
export function isRedelivery(
	scope: string,
	eventId: string | null,
	delivery: { rawBody: Buffer },
	verification: { timestampMs?: number },
	settings: { toleranceSeconds: number; rememberEventIdsHours: number },
	now = Date.now(),
): boolean {
	// No event id: a digest of the body, so a redelivery without one is still one event.
	const id = eventId ?? `sha256:${createHash('sha256').update(delivery.rawBody).digest('base64')}`;
	// The hours set, at least while a replay could still pass the timestamp check.
	const replayable =
		Math.max(now, verification.timestampMs ?? now) + settings.toleranceSeconds * 1e3;
	const until = Math.max(now + settings.rememberEventIdsHours * 3_600_000, replayable);
	return !eventIdMemory.claim(scope, id, until, now);
}
