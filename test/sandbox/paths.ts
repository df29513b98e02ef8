// Path matchers shared by fault rules and log filters.
import type { PathMatcher } from './types';

const REGEX_LITERAL = /^\/(.+)\/([dgimsuy]*)$/;

/** A string matches exactly (after the base, or as the full path); a RegExp is tested. */
export function matchesPath(
	matcher: PathMatcher | undefined,
	path: string,
	fullPath = path,
): boolean {
	if (matcher === undefined) return true;
	if (typeof matcher === 'string') return matcher === path || matcher === fullPath;
	matcher.lastIndex = 0;
	return matcher.test(path);
}

/**
 * Over HTTP a RegExp arrives as the string String(regex) gives, e.g. "/^\/partner-api\/bookings/".
 * Plain paths such as "/partner-api/hubs" are no valid literal (h and b are no flags) and stay strings.
 */
export function parsePathMatcher(value: unknown): PathMatcher | undefined {
	if (typeof value !== 'string') return undefined;
	const literal = REGEX_LITERAL.exec(value);
	if (!literal) return value;
	try {
		return new RegExp(literal[1], literal[2]);
	} catch {
		return value;
	}
}

export function describePathMatcher(matcher: PathMatcher | undefined): string | undefined {
	return matcher === undefined ? undefined : String(matcher);
}
