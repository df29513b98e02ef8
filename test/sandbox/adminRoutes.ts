// /__admin/... over HTTP, for the e2e suite in another process. Token-protected, never logged,
// never rate limited or faulted.
import { timingSafeEqual } from 'node:crypto';

import { ApiError } from './errors';
import { parsePathMatcher } from './paths';
import type { RequestLog } from './requestLog';
import { matchRoute } from './router';
import type { FaultPlan, OrgId, RedirectTarget, SandboxAdmin } from './types';
import { isJsonObject, type JsonObject } from './validate/fields';
import type { SendWebhookOptions } from './webhook';

export interface AdminRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
}

interface AdminRoute {
	method: 'GET' | 'POST' | 'DELETE';
	path: string;
	handle(params: Record<string, string>, body: JsonObject, query: Record<string, string>): unknown;
}

const OK = { ok: true };

/** JSON cannot carry a RegExp: paths arrive as strings, "/.../flags" ones become RegExps. */
function faultPlanFromJson(body: JsonObject): FaultPlan {
	const plan = body as FaultPlan;
	if (plan.failNext !== undefined && !Array.isArray(plan.failNext)) {
		throw new ApiError(400, 'VALIDATION_ERROR', 'failNext must be an array.', {
			field: 'failNext',
		});
	}
	return {
		...plan,
		failNext: plan.failNext?.map((rule) => ({ ...rule, path: parsePathMatcher(rule.path) })),
	};
}

function adminRoutes(
	admin: SandboxAdmin,
	log: RequestLog,
	redirectTarget: RedirectTarget,
): AdminRoute[] {
	return [
		{
			method: 'GET',
			path: '/__admin/log',
			handle: (_p, _b, query) =>
				log.list({ method: query.method, path: parsePathMatcher(query.path) }),
		},
		{ method: 'DELETE', path: '/__admin/log', handle: () => (log.clear(), OK) },
		{
			method: 'GET',
			path: '/__admin/redirect-target/log',
			handle: () => redirectTarget.requests(),
		},
		{
			method: 'DELETE',
			path: '/__admin/redirect-target/log',
			handle: () => (redirectTarget.clear(), OK),
		},
		{ method: 'GET', path: '/__admin/state', handle: () => admin.state() },
		{ method: 'POST', path: '/__admin/reset', handle: () => (admin.reset(), OK) },
		{
			method: 'POST',
			path: '/__admin/quote-requests/:id/quotation',
			handle: (p, body) => admin.issueQuoteRequestQuotation(p.id, body),
		},
		{
			method: 'POST',
			path: '/__admin/haulage/quotations/:id/quotation',
			handle: (p, body) => admin.issueHaulageQuotation(p.id, body),
		},
		{
			method: 'POST',
			path: '/__admin/haulage/quotations/:id/assign',
			handle: (p) => admin.assignHaulage(p.id),
		},
		{
			method: 'POST',
			path: '/__admin/haulage/trucks/:assignmentId/move',
			handle: (p, body) => admin.moveTruck(p.assignmentId, body),
		},
		{
			method: 'POST',
			path: '/__admin/haulage/trips/:tripId/progress',
			handle: (p, body) => admin.progressTrip(p.tripId, body.status as string | undefined),
		},
		{
			method: 'POST',
			path: '/__admin/payments/:reference/settle',
			handle: (p) => admin.settlePayment(p.reference),
		},
		{
			method: 'POST',
			path: '/__admin/payments/:reference/fail',
			handle: (p) => admin.failPayment(p.reference),
		},
		{
			method: 'POST',
			path: '/__admin/orgs/:org/credit',
			handle: (p, body) => (admin.setCredit(p.org as OrgId, body.enabled as boolean), OK),
		},
		{
			method: 'POST',
			path: '/__admin/faults',
			handle: (_p, body) => (admin.setFaults(faultPlanFromJson(body)), OK),
		},
		{
			method: 'POST',
			path: '/__admin/rate-limit',
			handle: (_p, body) => (
				admin.setRateLimit((body.perSecond ?? null) as number | null, {
					headers: (body.headers ?? false) as boolean,
				}),
				OK
			),
		},
		{
			method: 'POST',
			path: '/__admin/latency',
			handle: (_p, body) => (admin.setLatency(body.ms as number), OK),
		},
		{
			method: 'POST',
			path: '/__admin/quote-ttl',
			handle: (_p, body) => (admin.setQuoteTtl(body.ms as number), OK),
		},
		{
			method: 'POST',
			path: '/__admin/replay-refusals',
			handle: (_p, body) => (admin.setReplayRefusals(body.enabled as boolean), OK),
		},
		{
			method: 'POST',
			path: '/__admin/repeat-actions',
			handle: (_p, body) => (admin.setRepeatActions(body.enabled as boolean), OK),
		},
		{
			method: 'POST',
			path: '/__admin/webhooks/send',
			handle: (_p, body) => admin.sendWebhook(body as unknown as SendWebhookOptions),
		},
	];
}

function tokenMatches(expected: string, given: string | undefined): boolean {
	const a = Buffer.from(expected);
	const b = Buffer.from(given ?? '');
	return a.length === b.length && timingSafeEqual(a, b);
}

export function createAdminHandler(
	admin: SandboxAdmin,
	log: RequestLog,
	redirectTarget: RedirectTarget,
	adminToken: string,
) {
	const routes = adminRoutes(admin, log, redirectTarget);
	return async (req: AdminRequest): Promise<{ status: number; body: unknown }> => {
		try {
			if (!tokenMatches(adminToken, req.headers['x-sandbox-admin-token'])) {
				throw new ApiError(
					401,
					'ADMIN_TOKEN_REQUIRED',
					'Send the sandbox admin token in x-sandbox-admin-token.',
				);
			}
			const match = matchRoute(routes, req.method, req.path);
			if (!match.route)
				throw new ApiError(404, 'NOT_FOUND', `No admin route ${req.method} ${req.path}.`);
			let body: unknown = {};
			if (req.rawBody.trim()) {
				try {
					body = JSON.parse(req.rawBody);
				} catch {
					throw new ApiError(400, 'INVALID_JSON', 'The admin request body is not valid JSON.');
				}
			}
			if (!isJsonObject(body))
				throw new ApiError(400, 'INVALID_BODY', 'The body must be a JSON object.');
			return { status: 200, body: await match.route.handle(match.params, body, req.query) };
		} catch (error) {
			if (error instanceof ApiError) return { status: error.status, body: error.body };
			return { status: 500, body: { code: 'INTERNAL_ERROR', message: String(error) } };
		}
	};
}
