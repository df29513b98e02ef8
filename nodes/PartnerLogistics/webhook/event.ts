import type { JsonValue } from 'n8n-workflow';

import { valueAt } from '../shared/valueAt';
import { headerValue, type HeaderMap, type Verification } from './signature';
import type { TriggerSettings } from './settings';

/** The verified raw bytes as JSON: any value is an event (a refused one is retried for days). */
export function parseEventBody(
	rawBody: Buffer,
	contentType: string | undefined,
):
	| { ok: true; event: JsonValue }
	| { ok: false; reason: 'not-json-content-type' | 'invalid-json' } {
	// application/json or application/<subtype>+json, whatever its parameters (charset).
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	if (!/^application\/([\w.-]+\+)?json$/.test(type))
		return { ok: false, reason: 'not-json-content-type' };
	try {
		// n8n strips a byte order mark before parsing too.
		return { ok: true, event: JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, '')) };
	} catch {
		return { ok: false, reason: 'invalid-json' };
	}
}

/** Empty accepts everything; `*` accepts everything; `booking.*` accepts `booking.created`. */
export function acceptsEventType(accepted: readonly string[], type: string | null): boolean {
	if (accepted.length === 0 || accepted.includes('*')) return true;
	return accepted.some((pattern) =>
		pattern.endsWith('*') ? type?.startsWith(pattern.slice(0, -1)) : pattern === type,
	);
}

/** The item an accepted delivery runs with: its fields are described in docs/triggers.md. */
export function eventItem(
	event: JsonValue,
	verification: Extract<Verification, { ok: true }>,
	settings: Pick<TriggerSettings, 'eventIdField' | 'eventTypeField' | 'eventTypeHeader'>,
	headers: HeaderMap,
) {
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
