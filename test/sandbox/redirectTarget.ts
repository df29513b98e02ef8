// The other origin that redirect faults point at: records every request it receives (so a test can
// see whether the API key followed the redirect) and answers 200 JSON.
import { createServer } from 'node:http';

import { bodyForLog, flatHeaders, listenLocal, readBody, send } from './http';
import type { RedirectedRequest, RedirectTarget } from './types';

export interface RunningRedirectTarget extends RedirectTarget {
	close(): Promise<void>;
}

export async function startRedirectTarget(): Promise<RunningRedirectTarget> {
	let received: RedirectedRequest[] = [];
	let lastSeq = 0;

	const server = createServer((req, res) => {
		const seq = ++lastSeq;
		const at = Date.now();
		readBody(req).then(
			(rawBody) => {
				const url = new URL(req.url ?? '/', 'http://127.0.0.1');
				const headers = flatHeaders(req);
				const apiKeyReceived = headers['x-svc-api-key'] !== undefined;
				received.push({
					seq,
					at,
					method: (req.method ?? 'GET').toUpperCase(),
					path: url.pathname,
					query: Object.fromEntries(url.searchParams),
					headers,
					apiKeyReceived,
					body: bodyForLog(rawBody ?? ''),
				});
				send(
					res,
					200,
					JSON.stringify({ redirectTarget: true, path: url.pathname, apiKeyReceived }),
				);
			},
			() => req.socket.destroy(),
		);
	});
	const running = await listenLocal(server, 0);
	return {
		origin: running.origin,
		requests: () => received.map((r) => structuredClone(r)).sort((a, b) => a.seq - b.seq),
		clear: () => {
			received = [];
		},
		close: running.close,
	};
}
