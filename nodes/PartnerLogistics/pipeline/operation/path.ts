import { pathIds } from './spec';
import { fail, required, type Problem } from './problem';

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
 * `/cases/{caseId}/close` with each id read, trimmed, checked (a bad one throws a ProblemError) and
 * URL-encoded, so an id can only name its own record (`a/b` stays one segment: `a%2Fb`).
 */
export function pathOf(path: string, read: (name: string) => unknown): string {
	let url = path;
	for (const name of pathIds(path)) {
		const value = read(name);
		const problem = pathIdProblem(name, value);
		if (problem) fail(problem);
		url = url.replace(`{${name}}`, encodeURIComponent(String(value).trim()));
	}
	return url;
}
