import type { INodePropertyOptions } from 'n8n-workflow';

import { optionFields, triggerProperties, type SignatureScheme } from './description';

export interface TriggerOptions {
	toleranceSeconds: number;
	rememberEventIdsHours: number;
	timestampUnit: 'auto' | 'seconds' | 'milliseconds';
	eventTypeField: string;
	eventTypeHeader: string;
	eventIdField: string;
	stripeHeaderName: string;
	hmacHeaderName: string;
	hmacAlgorithm: 'sha256' | 'sha512';
	hmacEncoding: 'hex' | 'base64';
	hmacPrefix: string;
}

export const DEFAULT_OPTIONS = Object.fromEntries(
	optionFields.map((field) => [field.name, field.default]),
) as unknown as TriggerOptions;

export interface TriggerSettings extends TriggerOptions {
	signatureScheme: SignatureScheme;
	eventTypes: string[];
}

/** A configuration problem, told to the user: what is wrong and (description) what to do. */
export type Misconfiguration = Record<'message' | 'description', string>;

const ALLOWED = [...triggerProperties, ...optionFields]
	.filter((field) => field.type === 'options')
	.map(({ name, options }) => {
		const allowed: unknown[] = (options as INodePropertyOptions[]).map((option) => option.value);
		return { name, allowed };
	});
const NOT_EMPTY = ['stripeHeaderName', 'hmacHeaderName', 'eventTypeField', 'eventIdField'];
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined);

/** The parameters as settings: a bad value is a problem, never a weaker fallback (e.g. `none`). */
export function resolveSettings(
	signatureScheme: unknown,
	events: unknown,
	options: Partial<Record<keyof TriggerOptions, unknown>>,
): { ok: true; settings: TriggerSettings } | { ok: false; problem: Misconfiguration } {
	const defined = Object.entries(options).filter(([, value]) => value !== undefined);
	const merged: Record<string, unknown> = { ...DEFAULT_OPTIONS, ...Object.fromEntries(defined) };
	merged.signatureScheme = signatureScheme;
	const bad = (name: string, must: string) => {
		const description = `Got ${JSON.stringify(merged[name])}.`;
		return { ok: false as const, problem: { message: `${name} must ${must}`, description } };
	};
	const unknown = ALLOWED.find(({ name, allowed }) => !allowed.includes(merged[name]));
	if (unknown) return bad(unknown.name, `be one of ${unknown.allowed.join(', ')}`);
	const [tolerance, hours] = [merged.toleranceSeconds, merged.rememberEventIdsHours].map(Number);
	if (!(tolerance > 0 && tolerance < Infinity))
		return bad('toleranceSeconds', 'be a number of seconds above 0');
	if (!(hours >= 0 && hours < Infinity))
		return bad('rememberEventIdsHours', 'be a number of hours, 0 or more');
	const empty = NOT_EMPTY.find((name) => !text(merged[name]));
	if (empty) return bad(empty, 'not be empty');
	// An HTTP header name (RFC 9110 token), or nothing.
	const eventTypeHeader = text(merged.eventTypeHeader);
	if (eventTypeHeader === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/.test(eventTypeHeader))
		return bad('eventTypeHeader', 'be a header name such as X-Event-Type, or empty');
	return {
		ok: true,
		settings: {
			...(merged as unknown as TriggerSettings),
			toleranceSeconds: tolerance,
			rememberEventIdsHours: hours,
			eventTypeHeader,
			hmacPrefix: String(merged.hmacPrefix ?? ''),
			// `booking.created, payment.*` or one per line; blanks are ignored.
			eventTypes: typeof events === 'string' ? events.split(/[\s,]+/).filter(Boolean) : [],
		},
	};
}
