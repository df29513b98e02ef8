import type { IDataObject } from 'n8n-workflow';

import { fail, HIDDEN, isGiven, type Problem } from './problem';

/** A value of a JSON body field. */
export type BodyValue = IDataObject[string];

/** Reads one parameter of the current item, undefined when it is not set. */
export type ParameterReader = (name: string) => BodyValue;

/** What an operation may look at: the item's parameters and the incoming item itself. */
export interface BodyInput {
	read: ParameterReader;
	/** The JSON of the incoming item (the quote to book, a CSV row of route fields). */
	item: IDataObject;
}

/** Builds the JSON body of one item from what it is given; judging it is the check's job. */
export type BodyBuilder = (input: BodyInput) => IDataObject;
/** Judges a complete body (Extra Body Fields merged): the first problem, or none. */
export type BodyCheck = (body: IDataObject, input: BodyInput) => Problem | undefined;

/**
 * The body of one item: what the operation builds, plus Extra Body Fields, which may add fields
 * but not change a named one (a booking payment never becomes CREDIT through them); checked whole.
 */
export function buildBody(input: BodyInput, build: BodyBuilder, check?: BodyCheck): IDataObject {
	const additional = (input.read('additionalFields') ?? {}) as IDataObject;
	const extra = jsonObject(additional.extraBody, 'extraBody', {});
	const named = build(input);
	const body = { ...extra, ...named };
	const problem = conflict(extra, named) ?? check?.(body, input);
	if (problem) fail(problem);
	return body;
}

/** Leaves out the fields not given (undefined, null or an empty string). */
export function compact(body: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(body).filter(([, value]) => isGiven(value)));
}

function conflict(extra: IDataObject, named: IDataObject): Problem | undefined {
	const key = Object.keys(extra).find(
		(name) => name in named && JSON.stringify(extra[name]) !== JSON.stringify(named[name]),
	);
	if (key === undefined) return undefined;
	return {
		field: `extraBody.${key}`,
		value: extra[key],
		rule: `conflicts with the value the node sends for ${key} (${JSON.stringify(named[key])}); remove it from Extra Body Fields`,
	};
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
