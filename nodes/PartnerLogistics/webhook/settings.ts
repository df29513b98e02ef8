import type { INodePropertyOptions } from 'n8n-workflow';

import { optionFields, triggerProperties, type SignatureScheme } from './description';

export type HmacAlgorithm = 'sha256' | 'sha512';
export type HmacEncoding = 'hex' | 'base64';
/** How a delivery's timestamp is written: `auto` reads values above 1e10 as milliseconds. */
export type TimestampUnit = 'auto' | 'seconds' | 'milliseconds';

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

/** A configuration problem, told to the user: what is wrong and (description) what to do. */
export type Misconfiguration = Record<'message' | 'description', string>;

/** The values each options parameter offers, read from the description. */
const ALLOWED = [...triggerProperties, ...optionFields]
	.filter((field) => field.type === 'options')
	.map(({ name, options }) => [name, (options as INodePropertyOptions[]).map((o) => o.value)]);

/** The parameters as settings: a bad value is a problem, never a weaker fallback (e.g. `none`). */
export function resolveSettings(
	signatureScheme: unknown,
	events: unknown,
	options: Partial<Record<keyof TriggerOptions, unknown>>,
): { ok: true; settings: TriggerSettings } | { ok: false; problem: Misconfiguration } {
	const defined = Object.entries(options).filter(([, value]) => value !== undefined);
	const merged = { ...DEFAULT_OPTIONS, ...Object.fromEntries(defined), signatureScheme };
	const problem = (message: string, value: unknown) => ({
		ok: false as const,
		problem: { message, description: `Got ${JSON.stringify(value)}.` },
	});
	for (const [name, allowed] of ALLOWED as Array<[keyof typeof merged, unknown[]]>) {
		if (!allowed.includes(merged[name])) {
			return problem(`${name} must be one of ${allowed.join(', ')}`, merged[name]);
		}
	}
	const tolerance = Number(merged.toleranceSeconds);
	if (!Number.isFinite(tolerance) || tolerance <= 0) {
		return problem('toleranceSeconds must be a number of seconds above 0', merged.toleranceSeconds);
	}
	const hours = Number(merged.rememberEventIdsHours);
	if (!Number.isFinite(hours) || hours < 0) {
		const message = 'rememberEventIdsHours must be a number of hours, 0 or more';
		return problem(message, merged.rememberEventIdsHours);
	}
	for (const name of [
		'stripeHeaderName',
		'hmacHeaderName',
		'eventTypeField',
		'eventIdField',
	] as const) {
		if (typeof merged[name] !== 'string' || merged[name].trim() === '') {
			return problem(`${name} must not be empty`, merged[name]);
		}
	}
	const header = merged.eventTypeHeader;
	const eventTypeHeader = typeof header === 'string' ? header.trim() : undefined;
	// An HTTP header name (RFC 9110 token), or nothing.
	if (eventTypeHeader === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/.test(eventTypeHeader)) {
		return problem('eventTypeHeader must be a header name such as X-Event-Type, or empty', header);
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
