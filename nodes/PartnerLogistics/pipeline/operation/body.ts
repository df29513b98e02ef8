import type { IDataObject } from 'n8n-workflow';

import { fail, jsonObject, type Problem } from '../problem';

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

function conflict(extra: IDataObject, named: IDataObject): Problem | undefined {
	const key = Object.keys(extra).find(
		(name) => name in named && JSON.stringify(extra[name]) !== JSON.stringify(named[name]),
	);
	if (key === undefined) return undefined;
	return {
		field: `extraBody.${key}`,
		value: extra[key],
		rule: `conflicts with the value the node sends for ${key} (${JSON.stringify(named[key])})`,
		hint: 'Remove it from Extra Body Fields.',
	};
}
