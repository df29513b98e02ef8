// A small method + path-pattern router ('/partner-api/bookings/:bookingId/payment').
import type { SandboxCore } from './core';
import type { Capability, KeyName } from './fixtures';
import type { OrgData } from './store';
import type { OrgId } from './types';
import type { JsonObject } from './validate/fields';

export interface Principal {
	org: OrgId;
	keyName: KeyName;
	apiKey: string;
	capabilities: ReadonlySet<Capability>;
}

export interface RouteContext {
	core: SandboxCore;
	principal: Principal;
	/** The caller's organization: every lookup goes through it, so other orgs' ids are not found. */
	org: OrgData;
	params: Record<string, string>;
	query: Record<string, string>;
	/** {} for GET and for a POST without body. */
	body: JsonObject;
	now: number;
}

export interface RouteResult {
	status: number;
	body: unknown;
}

export interface RouteDef {
	method: 'GET' | 'POST';
	path: string;
	capability: Capability;
	handle(ctx: RouteContext): RouteResult;
}

export type RouteMatch<R> =
	| { route: R; params: Record<string, string> }
	| { route?: undefined; allowedMethods: string[] };

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
	const want = pattern.split('/');
	const got = path.split('/');
	if (want.length !== got.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < want.length; i++) {
		if (want[i].startsWith(':')) {
			if (!got[i]) return undefined;
			try {
				params[want[i].slice(1)] = decodeURIComponent(got[i]);
			} catch {
				return undefined;
			}
		} else if (want[i] !== got[i]) {
			return undefined;
		}
	}
	return params;
}

/** allowedMethods is empty when no route has this path at all (404), else it is a 405. */
export function matchRoute<R extends { method: string; path: string }>(
	routes: readonly R[],
	method: string,
	path: string,
): RouteMatch<R> {
	const allowedMethods: string[] = [];
	for (const route of routes) {
		const params = matchPattern(route.path, path);
		if (!params) continue;
		if (route.method === method) return { route, params };
		allowedMethods.push(route.method);
	}
	return { allowedMethods };
}
