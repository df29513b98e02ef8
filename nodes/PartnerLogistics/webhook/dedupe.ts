import { createHash } from 'node:crypto';

/** One remembered event id and the time (ms) until which a delivery carrying it is a duplicate. */
export type SeenEvent = { id: string; until: number };

export const MAX_SEEN_EVENTS = 1000;

/**
 * The id a delivery is deduplicated by: its event id, or else a digest of its body, so an
 * identical redelivery of an event without an id still starts one execution only.
 */
export function deliveryKey(eventId: string | null, rawBody: Buffer): string {
	return eventId ?? `sha256:${createHash('sha256').update(rawBody).digest('base64')}`;
}

/**
 * Remember an id for as long as a delivery carrying it could still pass the timestamp check: until
 * its timestamp (or now, if later or absent) plus the tolerance.
 */
export function seenUntil(timestampMs: number | undefined, now: number, toleranceSeconds: number) {
	return Math.max(now, timestampMs ?? now) + toleranceSeconds * 1000;
}

/** Whatever workflow static data holds, as a list of valid entries. */
export function readSeenEvents(value: unknown): SeenEvent[] {
	if (!Array.isArray(value)) return [];
	return value.filter(
		(entry): entry is SeenEvent =>
			typeof entry?.id === 'string' && typeof entry?.until === 'number',
	);
}

export function isSeen(seen: readonly SeenEvent[], id: string, now: number): boolean {
	return seen.some((entry) => entry.id === id && entry.until > now);
}

/** A new list with `id` added and expired entries dropped, at most `max` long (latest expiry kept). */
export function rememberEvent(
	seen: readonly SeenEvent[],
	id: string,
	until: number,
	now: number,
	max = MAX_SEEN_EVENTS,
): SeenEvent[] {
	const kept = seen.filter((entry) => entry.until > now && entry.id !== id);
	kept.push({ id, until });
	return kept.length <= max ? kept : kept.sort((a, b) => a.until - b.until).slice(-max);
}

/**
 * Ids claimed by deliveries in this process. Workflow static data alone cannot stop two
 * concurrent duplicates: n8n loads it fresh for each request and saves it after the webhook
 * answers, so both would read "not seen". A check-and-claim with no `await` in between can.
 */
export class ProcessSeenEvents {
	private readonly scopes = new Map<string, SeenEvent[]>();

	/** Records the id and returns true, or returns false if it is already recorded and unexpired. */
	claim(scope: string, id: string, until: number, now: number): boolean {
		const seen = this.scopes.get(scope) ?? [];
		if (isSeen(seen, id, now)) return false;
		this.scopes.set(scope, rememberEvent(seen, id, until, now));
		return true;
	}
}

export const processSeenEvents = new ProcessSeenEvents();
