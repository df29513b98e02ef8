// One partner request, in order: answering fault, base path, API key, rate limit, route,
// capability, Idempotency-Key, body, replay or reservation, delay and slow fault, handler (or a
// refuse or bigList rule in its place), storing the answer for replay, optional reset after commit.
import { setTimeout as sleep } from 'node:timers/promises';

import { authenticate, requireCapability } from './auth';
import type { SandboxCore } from './core';
import { ApiError } from './errors';
import { requestFingerprint } from './idempotency';
import { matchRoute, type RouteDef } from './router';
import type { StreamingWriter } from './streamingAnswers';
import type { AppliedFault } from './types';
import { isJsonObject, type JsonObject } from './validate/fields';

export interface PartnerRequest {
	method: string;
	/** After the base /api/v1 when inBase, else the full path. */
	path: string;
	fullPath: string;
	/** The query string with its "?", or "". */
	search: string;
	inBase: boolean;
	query: Record<string, string>;
	headers: Record<string, string>;
	rawBody: string;
}

export interface PartnerResponse {
	status: number;
	body: string;
	headers: Record<string, string>;
	/** Default application/json; charset=utf-8. */
	contentType?: string;
	replayed?: boolean;
	/** Committed, but the socket is destroyed instead of answering. */
	drop?: boolean;
	fault?: AppliedFault;
	/** Written over time by this writer (trickle, noHeaders, gzipBomb, bigList faults). */
	stream?: StreamingWriter;
}

export interface PipelineContext {
	/** Aborted when the sandbox closes: ends waits early. */
	signal: AbortSignal;
	/** Where redirect faults point (another origin). */
	redirectOrigin: string;
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

function errorResponse(error: unknown): PartnerResponse {
	const apiError =
		error instanceof ApiError
			? error
			: new ApiError(500, 'INTERNAL_ERROR', `Sandbox bug: ${(error as Error)?.message ?? error}`);
	return {
		status: apiError.status,
		body: JSON.stringify(apiError.body),
		headers: apiError.headers,
	};
}

/**
 * Counts the request against its key's limit, or refuses it with 429. With rate headers on, every
 * answer of a limited key says the limit, what remains of it and when the next slot frees
 * (`rate`, filled here); otherwise only a 429 says the limit.
 */
function enforceRateLimit(core: SandboxCore, apiKey: string, rate: Record<string, string>): void {
	const decision = core.limiter.take(apiKey);
	const limit = core.limiter.perSecond;
	if (decision.ok) {
		if (core.settings.rateHeaders && limit !== null) {
			Object.assign(rate, {
				'X-RateLimit-Limit': String(limit),
				'X-RateLimit-Remaining': String(decision.remaining),
				'X-RateLimit-Reset': String(Math.ceil(decision.resetMs / 1000)),
			});
		}
		return;
	}
	// Whole seconds, rounded up: a Retry-After of 0 would invite a retry that fails again.
	const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
	throw new ApiError(
		429,
		'RATE_LIMITED',
		`Rate limit of ${limit} requests per second exceeded; retry after ${seconds} s.`,
		{ retryAfterSeconds: seconds, retryAfterMs: decision.retryAfterMs },
		{
			'Retry-After': String(seconds),
			'X-RateLimit-Limit': String(limit),
			...(core.settings.rateHeaders
				? { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(seconds) }
				: {}),
		},
	);
}

function readIdempotencyKey(headers: Record<string, string>): string {
	const key = headers['idempotency-key']?.trim();
	if (!key) {
		throw new ApiError(
			400,
			'IDEMPOTENCY_KEY_REQUIRED',
			'Every POST needs an Idempotency-Key header: a unique value per operation, reused only when retrying that same request.',
			{ field: 'Idempotency-Key' },
		);
	}
	if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
		throw new ApiError(
			400,
			'IDEMPOTENCY_KEY_INVALID',
			`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters; got ${key.length}.`,
			{ field: 'Idempotency-Key' },
		);
	}
	return key;
}

function parseBody(raw: string): JsonObject {
	if (raw.trim() === '') return {};
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch (e) {
		throw new ApiError(
			400,
			'INVALID_JSON',
			`The request body is not valid JSON: ${(e as Error).message}`,
		);
	}
	if (!isJsonObject(parsed)) {
		throw new ApiError(400, 'INVALID_BODY', 'The request body must be a JSON object.');
	}
	return parsed;
}

function findRoute(routes: readonly RouteDef[], req: PartnerRequest) {
	const match = matchRoute(routes, req.method, req.path);
	if (match.route) return match;
	if (match.allowedMethods.length === 0) {
		throw new ApiError(404, 'NOT_FOUND', `No endpoint ${req.method} ${req.path}.`);
	}
	throw new ApiError(
		405,
		'METHOD_NOT_ALLOWED',
		`${req.path} does not accept ${req.method}; it accepts ${match.allowedMethods.join(', ')}.`,
		{},
		{ Allow: match.allowedMethods.join(', ') },
	);
}

export async function handlePartnerRequest(
	core: SandboxCore,
	routes: readonly RouteDef[],
	req: PartnerRequest,
	context: PipelineContext,
): Promise<PartnerResponse> {
	const rate: Record<string, string> = {};
	const response = await answer(core, routes, req, context, rate);
	return { ...response, headers: { ...rate, ...response.headers } };
}

async function answer(
	core: SandboxCore,
	routes: readonly RouteDef[],
	req: PartnerRequest,
	context: PipelineContext,
	rate: Record<string, string>,
): Promise<PartnerResponse> {
	const fault = core.faults.answerOnArrival(req, context.redirectOrigin);
	if (fault) return fault;
	try {
		if (!req.inBase) {
			throw new ApiError(404, 'NOT_FOUND', `Nothing at ${req.fullPath}; the API base is /api/v1.`);
		}
		const principal = authenticate(core.principals, req.headers['x-svc-api-key']);
		enforceRateLimit(core, principal.apiKey, rate);
		const { route, params } = findRoute(routes, req);
		requireCapability(principal, route.capability, `${req.method} ${route.path}`);

		const isPost = req.method === 'POST';
		const idempotencyKey = isPost ? readIdempotencyKey(req.headers) : undefined;
		const body = isPost ? parseBody(req.rawBody) : {};
		const reservation =
			idempotencyKey === undefined
				? undefined
				: core.idempotency.reserve(
						principal.org,
						idempotencyKey,
						requestFingerprint(req.method, req.path, body),
					);
		if (reservation?.kind === 'replay') {
			const { status, body: stored } = reservation.response;
			return { status, body: stored, headers: { 'Idempotent-Replayed': 'true' }, replayed: true };
		}

		let response: PartnerResponse;
		const slowMs = core.faults.takeSlow(req);
		try {
			const waitMs = core.faults.delayMs + slowMs;
			if (waitMs > 0) await sleep(waitMs, undefined, { signal: context.signal });
			const injected = core.faults.answerInHandler(req, core.settings.listShape);
			if (injected) {
				response = injected;
			} else {
				const now = Date.now();
				const org = core.store.orgs[principal.org];
				const result = route.handle({ core, principal, org, params, query: req.query, body, now });
				response = { status: result.status, body: JSON.stringify(result.body), headers: {} };
			}
		} catch (error) {
			response = errorResponse(error);
		}
		reservation?.complete(response, core.settings.replayRefusals);
		if (slowMs > 0) response.fault ??= 'slow';
		if (response.status >= 200 && response.status < 300) {
			const reset = core.faults.takeReset(req);
			if (reset) Object.assign(response, { drop: true, fault: reset });
		}
		return response;
	} catch (error) {
		return errorResponse(error);
	}
}
