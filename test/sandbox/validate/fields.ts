// Readers for single JSON values: each returns the typed value or throws a 400 naming the field.
import { invalid } from '../errors';

export type JsonObject = Record<string, unknown>;

/** null counts as absent: clients often send null for an empty optional field. */
export function isPresent(value: unknown): boolean {
	return value !== undefined && value !== null;
}

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(value: unknown): string {
	if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
	if (Array.isArray(value)) return 'an array';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	return `${typeof value} ${JSON.stringify(value)}`;
}

function missing(field: string, when?: string): never {
	throw invalid(field, `${field} is required${when ? ` ${when}` : ''}.`);
}

export function optionalString(value: unknown, field: string): string | undefined {
	if (!isPresent(value)) return undefined;
	if (typeof value !== 'string')
		throw invalid(field, `${field} must be a string; got ${describe(value)}.`);
	return value;
}

export function requiredString(value: unknown, field: string, when?: string): string {
	const text = optionalString(value, field);
	if (text === undefined) missing(field, when);
	if (text.trim() === '') throw invalid(field, `${field} must not be empty.`);
	return text;
}

export function optionalNumber(
	value: unknown,
	field: string,
	min: number,
	max: number,
): number | undefined {
	if (!isPresent(value)) return undefined;
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		throw invalid(
			field,
			`${field} must be a JSON number between ${min} and ${max}; got ${describe(value)}.`,
		);
	}
	if (value < min || value > max) {
		throw invalid(field, `${field} must be between ${min} and ${max}; got ${value}.`);
	}
	return value;
}

export function requiredNumber(
	value: unknown,
	field: string,
	min: number,
	max: number,
	when?: string,
): number {
	const num = optionalNumber(value, field, min, max);
	if (num === undefined) missing(field, when);
	return num;
}

export function optionalEnum<T extends string>(
	value: unknown,
	field: string,
	allowed: readonly T[],
): T | undefined {
	const text = optionalString(value, field);
	if (text === undefined) return undefined;
	if (!(allowed as readonly string[]).includes(text)) {
		throw invalid(field, `${field} must be one of ${allowed.join(', ')}; got ${describe(text)}.`);
	}
	return text as T;
}

const PHONE_DIGITS = /^\+\d{8,15}$/;

/** International format: + then 8 to 15 digits; spaces and dashes are tolerated. */
export function optionalPhone(value: unknown, field: string): string | undefined {
	const text = optionalString(value, field);
	if (text === undefined) return undefined;
	if (!PHONE_DIGITS.test(text.replace(/[\s-]/g, ''))) {
		throw invalid(
			field,
			`${field} must be a phone number in international format (+ then 8 to 15 digits, e.g. +2348012345678); got ${describe(text)}.`,
		);
	}
	return text;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export function optionalDateTime(value: unknown, field: string): string | undefined {
	const text = optionalString(value, field);
	if (text === undefined) return undefined;
	if (!ISO_DATE_TIME.test(text) || Number.isNaN(Date.parse(text))) {
		throw invalid(
			field,
			`${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:30:00Z; got ${describe(text)}.`,
		);
	}
	return text;
}

export function optionalObject(value: unknown, field: string): JsonObject | undefined {
	if (!isPresent(value)) return undefined;
	if (!isJsonObject(value))
		throw invalid(field, `${field} must be a JSON object; got ${describe(value)}.`);
	return value;
}

export function rejectPresent(body: JsonObject, fields: readonly string[], reason: string): void {
	const extra = fields.find((f) => isPresent(body[f]));
	if (extra) throw invalid(extra, `${extra} is not used ${reason}; remove it.`);
}
