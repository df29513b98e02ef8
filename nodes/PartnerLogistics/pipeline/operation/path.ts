import { pathIds } from './spec';
import { fail, pathIdProblem } from '../problem';

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
