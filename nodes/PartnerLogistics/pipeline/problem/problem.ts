/** What is wrong with one field of an item, in words the user can act on. */
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

/** The first problem of several checks, each run only if the ones before found nothing. */
export function firstProblem(problems: Array<Problem | undefined>): Problem | undefined {
	return problems.find((problem) => problem !== undefined);
}
