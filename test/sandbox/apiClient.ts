// Tiny fetch wrapper for the sandbox tests: real HTTP, API key and a fresh Idempotency-Key by default.
import { randomUUID } from 'node:crypto';

import type { Sandbox } from './index';

// Test assertions read deep into response bodies; typing each shape would add nothing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
	status: number;
	body: Json;
	text: string;
	headers: Headers;
}

export interface PostOptions {
	/** null sends no Idempotency-Key; default a fresh UUID. */
	idempotencyKey?: string | null;
	/** Raw body instead of JSON.stringify(body). */
	raw?: string;
	/** Default 'follow', as fetch. */
	redirect?: 'follow' | 'manual' | 'error';
	/** Aborts the call, e.g. AbortSignal.timeout(ms) for a client timeout. */
	signal?: AbortSignal;
}

async function toResponse(res: Response): Promise<ApiResponse> {
	const text = await res.text();
	let body: Json = text;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON: keep the text
	}
	return { status: res.status, body, text, headers: res.headers };
}

export function apiClient(sandbox: Sandbox, apiKey: string | null = sandbox.keys.full) {
	const auth: Record<string, string> = apiKey === null ? {} : { 'X-SVC-API-Key': apiKey };
	return {
		async get(path: string, query: Record<string, string> = {}): Promise<ApiResponse> {
			const qs = new URLSearchParams(query).toString();
			return toResponse(
				await fetch(`${sandbox.url}${path}${qs ? `?${qs}` : ''}`, { headers: auth }),
			);
		},
		async post(path: string, body: unknown = {}, options: PostOptions = {}): Promise<ApiResponse> {
			const key = options.idempotencyKey === undefined ? randomUUID() : options.idempotencyKey;
			const headers: Record<string, string> = { ...auth, 'content-type': 'application/json' };
			if (key !== null) headers['Idempotency-Key'] = key;
			const payload = options.raw ?? JSON.stringify(body);
			const { redirect, signal } = options;
			return toResponse(
				await fetch(`${sandbox.url}${path}`, {
					method: 'POST',
					headers,
					body: payload,
					redirect,
					signal,
				}),
			);
		},
	};
}

export type ApiClient = ReturnType<typeof apiClient>;

export async function adminFetch(
	sandbox: Sandbox,
	method: string,
	path: string,
	body?: unknown,
	token: string | null = sandbox.adminToken,
): Promise<ApiResponse> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (token !== null) headers['x-sandbox-admin-token'] = token;
	const init: RequestInit = { method, headers };
	if (body !== undefined) init.body = JSON.stringify(body);
	return toResponse(await fetch(`${sandbox.origin}${path}`, init));
}
