import { optionFields, type SignatureScheme } from './description';
import type { TimestampUnit } from './timestamp';

export type { SignatureScheme };
export type HmacAlgorithm = 'sha256' | 'sha512';
export type HmacEncoding = 'hex' | 'base64';

export interface TriggerOptions {
	toleranceSeconds: number;
	rememberEventIdsHours: number;
	timestampUnit: TimestampUnit;
	eventTypeField: string;
	/** Header read for the type when the payload has no Event Type Field; '' reads none. */
	eventTypeHeader: string;
	eventIdField: string;
	stripeHeaderName: string;
	hmacHeaderName: string;
	hmacAlgorithm: HmacAlgorithm;
	hmacEncoding: HmacEncoding;
	hmacPrefix: string;
}

export const DEFAULT_OPTIONS = Object.fromEntries(
	optionFields.map((field) => [field.name, field.default]),
) as unknown as TriggerOptions;

export interface TriggerSettings extends TriggerOptions {
	signatureScheme: SignatureScheme;
	/** Event types to accept; empty accepts every event. */
	eventTypes: string[];
}

export type SettingsResult =
	| { ok: true; settings: TriggerSettings }
	| { ok: false; problem: string };

const ALLOWED = {
	signatureScheme: ['standardWebhooks', 'stripe', 'hmacHeader', 'none'],
	timestampUnit: ['auto', 'seconds', 'milliseconds'],
	hmacAlgorithm: ['sha256', 'sha512'],
	hmacEncoding: ['hex', 'base64'],
} as const;

const NOT_EMPTY = ['stripeHeaderName', 'hmacHeaderName', 'eventTypeField', 'eventIdField'] as const;

/** An HTTP header name (RFC 9110 token), or nothing. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/;

/** The parameters as settings: a bad value is a problem, never a weaker fallback (e.g. `none`). */
export function resolveSettings(
	signatureScheme: unknown,
	events: unknown,
	options: Partial<Record<keyof TriggerOptions, unknown>>,
): SettingsResult {
	const defined = Object.entries(options).filter(([, value]) => value !== undefined);
	const given: typeof options = Object.fromEntries(defined);
	const merged = { ...DEFAULT_OPTIONS, ...given, signatureScheme };
	for (const [name, allowed] of Object.entries(ALLOWED)) {
		const value = merged[name as keyof typeof ALLOWED];
		if (!(allowed as readonly unknown[]).includes(value)) {
			return { ok: false, problem: `${name} must be one of ${allowed.join(', ')}, not "${value}"` };
		}
	}
	const tolerance = Number(merged.toleranceSeconds);
	if (!Number.isFinite(tolerance) || tolerance <= 0) {
		return { ok: false, problem: 'toleranceSeconds must be a number of seconds above 0' };
	}
	const hours = Number(merged.rememberEventIdsHours);
	if (!Number.isFinite(hours) || hours < 0) {
		return { ok: false, problem: 'rememberEventIdsHours must be a number of hours, 0 or more' };
	}
	for (const name of NOT_EMPTY) {
		if (typeof merged[name] !== 'string' || merged[name].trim() === '') {
			return { ok: false, problem: `${name} must not be empty` };
		}
	}
	const header = merged.eventTypeHeader;
	const eventTypeHeader = typeof header === 'string' ? header.trim() : undefined;
	if (eventTypeHeader === undefined || !HEADER_NAME.test(eventTypeHeader)) {
		const problem = `eventTypeHeader must be a header name such as X-Event-Type, or empty; not "${header}"`;
		return { ok: false, problem };
	}
	return {
		ok: true,
		settings: {
			...(merged as TriggerSettings),
			toleranceSeconds: tolerance,
			rememberEventIdsHours: hours,
			eventTypeHeader,
			hmacPrefix: String(merged.hmacPrefix ?? ''),
			// `booking.created, payment.*` or one per line; blanks are ignored.
			eventTypes: typeof events === 'string' ? events.split(/[\s,]+/).filter(Boolean) : [],
		},
	};
}
