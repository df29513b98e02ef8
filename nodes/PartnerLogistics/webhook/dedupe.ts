import { createHash } from 'node:crypto';

import { processMap } from '../shared/processMemory';

export const MAX_REMEMBERED_EVENTS = 10_000;
/** Triggers whose event ids are remembered; past it the trigger that received least lately goes. */
const MAX_TRIGGERS = 1_000;

/** Its event id, or else a digest of its body: a redelivery without an id is still one event. */
export function deliveryId(eventId: string | null, rawBody: Buffer): string {
	return eventId ?? `sha256:${createHash('sha256').update(rawBody).digest('base64')}`;
}

/**
 * Until when (ms) a delivery's id is remembered: the configured hours (senders retry for days, each
 * time freshly timestamped), never less than a replay of it could still pass the timestamp check.
 */
export function rememberUntil(
	timestampMs: number | undefined,
	now: number,
	settings: { toleranceSeconds: number; rememberEventIdsHours: number },
): number {
	const replayable = Math.max(now, timestampMs ?? now) + settings.toleranceSeconds * 1000;
	return Math.max(now + settings.rememberEventIdsHours * 3_600_000, replayable);
}

/**
 * Event ids seen by this process per trigger (`scope`), at most `max` each, oldest dropped first.
 * Memory only: a restart forgets, and other n8n processes have their own.
 */
export class EventIdMemory {
	private readonly scopes = processMap<Map<string, number>>('webhook event ids, by trigger', {
		max: MAX_TRIGGERS,
	});

	constructor(private readonly max = MAX_REMEMBERED_EVENTS) {}

	/**
	 * Records `id` until `until` and returns true, or false while an earlier record holds. One
	 * synchronous step: of any number of concurrent copies of an event, exactly one gets true.
	 */
	claim(scope: string, id: string, until: number, now: number): boolean {
		const seen = this.scopes.use(scope, () => new Map<string, number>());
		const held = seen.get(id);
		if (held !== undefined && held > now) return false;
		// Deleted first, so a re-recorded id moves to the end of Map's insertion order.
		seen.delete(id);
		seen.set(id, until);
		for (const [oldest, expires] of seen) {
			if (seen.size <= this.max && expires > now) break;
			seen.delete(oldest);
		}
		return true;
	}

	size(scope: string): number {
		return this.scopes.get(scope)?.size ?? 0;
	}
}

export const eventIdMemory = new EventIdMemory();

/** Whether a verified delivery repeats an event `scope` still remembers; if not, records it. */
export function isRedelivery(
	scope: string,
	eventId: string | null,
	delivery: { rawBody: Buffer },
	verification: { timestampMs?: number },
	settings: { toleranceSeconds: number; rememberEventIdsHours: number },
	now = Date.now(),
): boolean {
	const until = rememberUntil(verification.timestampMs, now, settings);
	return !eventIdMemory.claim(scope, deliveryId(eventId, delivery.rawBody), until, now);
}
