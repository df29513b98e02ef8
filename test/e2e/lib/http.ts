/** A JSON response: status, parsed body (or the raw text when it is not JSON) and headers. */
export interface JsonResponse<T = unknown> {
	status: number;
	body: T;
	headers: Headers;
}

export async function requestJson<T = unknown>(
	url: string,
	init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonResponse<T>> {
	const response = await fetch(url, {
		method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
		headers: {
			accept: 'application/json',
			...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
			...init.headers,
		},
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	let body: unknown = text;
	try {
		body = text === '' ? undefined : JSON.parse(text);
	} catch {
		// Not JSON: keep the text.
	}
	return { status: response.status, body: body as T, headers: response.headers };
}

/** Like requestJson, but any status outside 2xx is an error that shows the body. */
export async function expectOk<T = unknown>(
	what: string,
	url: string,
	init: Parameters<typeof requestJson>[1] = {},
): Promise<JsonResponse<T>> {
	const response = await requestJson<T>(url, init);
	if (response.status < 200 || response.status > 299) {
		throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
	}
	return response;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined>,
	{ timeoutMs = 60_000, intervalMs = 250, abort }: WaitOptions = {},
): Promise<T> {
	const end = Date.now() + timeoutMs;
	let lastError: unknown;
	while (Date.now() < end) {
		if (abort) {
			const reason = abort();
			if (reason) throw new Error(`${what}: ${reason}`);
		}
		try {
			const value = await check();
			if (value !== undefined) return value;
		} catch (error) {
			lastError = error;
		}
		await sleep(intervalMs);
	}
	const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
	throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
}

export interface WaitOptions {
	timeoutMs?: number;
	intervalMs?: number;
	/** Returns a reason to give up early (e.g. the server process exited), or undefined. */
	abort?: () => string | undefined;
}
