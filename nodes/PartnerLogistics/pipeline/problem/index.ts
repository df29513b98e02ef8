import type { IDataObject } from 'n8n-workflow';

/** What is wrong with a field of an item, in words the user can act on; checks forms share. */
export interface Problem {
	/** The API's name of the field, e.g. `pickupLatitude` or `stops[1].latitude`. */
	field: string;
	value: unknown;
	/** Completes "<field> …", e.g. "must be between −90 and 90". */
	rule: string;
	/** How to name the field when the operation's form has no field of that name. */
	label?: string;
	/** What to do, or why, when the rule alone does not say: it goes in the error's description. */
	hint?: string;
}

/** A value a message must not repeat (card data, text that failed to parse as JSON). */
export const HIDDEN = Symbol('hidden');

/** Thrown where a parameter cannot be read at all; the pipeline makes it the item's error. */
export class ProblemError extends Error {
	constructor(readonly problem: Problem) {
		super(`${problem.field} ${problem.rule}`);
	}
}

export function fail(problem: Problem): never {
	throw new ProblemError(problem);
}

/** An empty required field: the one rule text for every "not given". */
export function required(field: string, value?: unknown): Problem {
	return { field, value, rule: 'is required' };
}

/** Given: neither undefined, null nor an empty string (which a body leaves out). */
export const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';
export const firstProblem = (problems: Array<Problem | undefined>) => problems.find(Boolean);
/** Leaves out the fields not given (undefined, null or an empty string). */
export const compact = (body: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(body).filter(([, value]) => isGiven(value)));

/** What is wrong with an id for a path, as trimmed text: empty, or a step URL-encoding keeps. */
export function pathIdProblem(name: string, value: unknown): Problem | undefined {
	const text = isGiven(value) ? String(value).trim() : '';
	if (text === '') return required(name, value);
	const rule = 'cannot be "." or "..": the request would reach another endpoint of the API';
	return text === '.' || text === '..' ? { field: name, value, rule } : undefined;
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
 * Where JSON text goes wrong, "error at character N" (from 1), never quoting it: Node names no
 * position for some errors, so a binary search finds the shortest prefix failing but by its end.
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
