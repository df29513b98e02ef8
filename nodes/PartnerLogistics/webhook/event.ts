import type { HeaderMap, Verification } from './signature';
import type { TriggerSettings } from './settings';

export type JsonObject = Record<string, unknown>;

export type ParsedBody =
	| { ok: true; event: JsonObject }
	| { ok: false; reason: 'not-json-content-type' | 'invalid-json' | 'not-a-json-object' };

/** What the trigger emits for one accepted delivery. */
export interface EventItem {
	/** `webhook-id` for Standard Webhooks, else the payload's id field; null when there is none. */
	id: string | null;
	type: string | null;
	/** The signed delivery timestamp as ISO 8601; null for schemes that carry none. */
	timestamp: string | null;
	event: JsonObject;
	headers: HeaderMap;
}

/**
 * Parses the verified raw bytes, not n8n's parsed body, so the event is exactly what was signed.
 * Events are JSON objects; a body declared as anything else is refused even if it parses.
 */
export function parseEventBody(rawBody: Buffer, contentType: string | undefined): ParsedBody {
	if (!isJsonContentType(contentType)) return { ok: false, reason: 'not-json-content-type' };
	let value: unknown;
	try {
		// n8n strips a byte order mark before parsing too.
		value = JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, ''));
	} catch {
		return { ok: false, reason: 'invalid-json' };
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { ok: false, reason: 'not-a-json-object' };
	}
	return { ok: true, event: value as JsonObject };
}

export function isJsonContentType(contentType: string | undefined): boolean {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}

/** Reads `data.type`-style paths; a key containing dots is found before the path is split. */
export function readField(event: JsonObject, path: string): unknown {
	if (path in event) return event[path];
	let value: unknown = event;
	for (const key of path.split('.')) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = (value as JsonObject)[key];
	}
	return value;
}

/** Empty accepts everything; `*` accepts everything; `booking.*` accepts `booking.created`. */
export function acceptsEventType(accepted: readonly string[], type: string | null): boolean {
	if (accepted.length === 0 || accepted.includes('*')) return true;
	if (type === null) return false;
	return accepted.some((pattern) =>
		pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type,
	);
}

export function eventItem(
	event: JsonObject,
	verification: Extract<Verification, { ok: true }>,
	settings: Pick<TriggerSettings, 'eventIdField' | 'eventTypeField'>,
	headers: HeaderMap,
): EventItem {
	const timestampMs = verification.timestampMs;
	return {
		id: verification.eventId ?? scalar(readField(event, settings.eventIdField)),
		type: scalar(readField(event, settings.eventTypeField)),
		timestamp: timestampMs === undefined ? null : new Date(timestampMs).toISOString(),
		event,
		headers,
	};
}

function scalar(value: unknown): string | null {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}
