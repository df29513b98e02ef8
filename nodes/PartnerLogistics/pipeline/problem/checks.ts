import type { IDataObject } from 'n8n-workflow';

import { fail, HIDDEN, isGiven, required, type Problem } from './problem';

/** Leaves out the fields not given (undefined, null or an empty string). */
export function compact(body: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(body).filter(([, value]) => isGiven(value)));
}

/**
 * Path steps, not ids: URL-encoding leaves dots alone and the URL parser then drops the segment,
 * so `/bookings/../payment` would reach another endpoint, with the key.
 */
const PATH_STEPS = new Set(['.', '..']);

/** What is wrong with an id for a path (as trimmed text: empty, or a path step), if anything. */
export function pathIdProblem(name: string, value: unknown): Problem | undefined {
	const text = value === undefined || value === null ? '' : String(value).trim();
	if (text === '') return required(name, value);
	if (PATH_STEPS.has(text)) {
		return {
			field: name,
			value,
			rule: 'cannot be "." or "..": the request would reach another endpoint of the API',
		};
	}
	return undefined;
}

/**
 * A JSON object parameter, given as text (a JSON field) or as an object (an expression). Empty
 * gives `empty`. Invalid JSON is reported by its position, never echoed: it may hold secrets.
 */
export function jsonObject(value: unknown, field: string, empty?: IDataObject): IDataObject {
	if (!isGiven(value) && empty) return empty;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			return fail({ field, value: HIDDEN, rule: `must be valid JSON (${where(value)})` });
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		return fail({ field, value: HIDDEN, rule: 'must be a JSON object, e.g. {"key": "value"}' });
	}
	return parsed as IDataObject;
}

/**
 * Where JSON text goes wrong, as "error at character N" (counted from 1), without quoting it.
 * Node's parser names a position for some errors only, so the first bad character is found as
 * the shortest prefix that fails for another reason than ending too early: a valid prefix stays
 * valid as it grows, so a binary search finds it.
 */
function where(text: string): string {
	const endsEarly = (prefix: string) => {
		try {
			JSON.parse(prefix);
			return true;
		} catch (error) {
			const message = error instanceof Error ? error.message : '';
			const position = /position (\d+)/.exec(message)?.[1];
			return /end of JSON input/i.test(message) || Number(position) === prefix.length;
		}
	};
	if (endsEarly(text)) return 'it ends too early';
	let good = 0;
	let bad = text.length;
	while (bad - good > 1) {
		const middle = Math.floor((good + bad) / 2);
		if (endsEarly(text.slice(0, middle))) good = middle;
		else bad = middle;
	}
	return `error at character ${bad}`;
}
