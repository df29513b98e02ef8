import type { JsonValue } from 'n8n-workflow';

import { valueAt } from '../shared/valueAt';
import { headerValue, type HeaderMap, type Verification } from './signature';
import type { TriggerSettings } from './settings';

export type ParsedBody =
	| { ok: true; event: JsonValue }
	| { ok: false; reason: 'not-json-content-type' | 'invalid-json' };

/** What the trigger emits for one accepted delivery. */
export interface EventItem {
	/** `webhook-id` for Standard Webhooks, else the payload object's Event ID Field, else null. */
	id: string | null;
	/** The payload's Event Type Field, else the Event Type Header; null when neither has one. */
	type: string | null;
	/** The signed delivery timestamp as ISO 8601; null for schemes that carry none. */
	timestamp: string | null;
	/** The payload as sent: an object, an array, a string, a number, a boolean or null. */
	event: JsonValue;
	headers: HeaderMap;
}

/**
 * Parses the verified raw bytes (what was signed, not n8n's parsed body). Any JSON value is an
 * event (refusing only makes the sender retry for days); a non-JSON content type is refused.
 */
export function parseEventBody(rawBody: Buffer, contentType: string | undefined): ParsedBody {
	if (!isJsonContentType(contentType)) return { ok: false, reason: 'not-json-content-type' };
	try {
		// n8n strips a byte order mark before parsing too.
		return { ok: true, event: JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, '')) };
	} catch {
		return { ok: false, reason: 'invalid-json' };
	}
}

export function isJsonContentType(contentType: string | undefined): boolean {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
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
	event: JsonValue,
	verification: Extract<Verification, { ok: true }>,
	settings: Pick<TriggerSettings, 'eventIdField' | 'eventTypeField' | 'eventTypeHeader'>,
	headers: HeaderMap,
): EventItem {
	const { timestampMs } = verification;
	// The payload's type field whenever present, even if unusable; else the header, if configured.
	const typeField = valueAt(event, settings.eventTypeField);
	const typeHeader = settings.eventTypeHeader && headerValue(headers, settings.eventTypeHeader);
	return {
		id: verification.eventId ?? scalar(valueAt(event, settings.eventIdField)),
		type: scalar(typeField !== undefined ? typeField : typeHeader || undefined),
		timestamp: timestampMs === undefined ? null : new Date(timestampMs).toISOString(),
		event,
		headers,
	};
}

function scalar(value: unknown): string | null {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}
