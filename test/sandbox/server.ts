// The HTTP server: reads each request whole, sends it to the admin or partner side, logs partner
// calls, streams the answers faults write over time, and on close destroys every socket so no
// handle outlives the sandbox.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { createAdminHandler } from './adminRoutes';
import type { SandboxCore } from './core';
import { bodyForLog, flatHeaders, listenLocal, readBody, type RunningServer, send } from './http';
import { handlePartnerRequest, type PartnerResponse } from './pipeline';
import { PARTNER_ROUTES } from './routes';
import type { StreamingWriter } from './streamingAnswers';
import type { RedirectTarget, RequestLogEntry, SandboxAdmin } from './types';

export type { RunningServer } from './http';

export const API_BASE = '/api/v1';
const ADMIN_PREFIX = '/__admin';
const TOO_LARGE = { code: 'PAYLOAD_TOO_LARGE', message: 'The request body exceeds 1 MB.' };

/**
 * Hands the response to an answer written over time; its log entry counts the body bytes sent and
 * notes a client that left before the answer was complete.
 */
async function streamAnswer(
	res: ServerResponse,
	writer: StreamingWriter,
	entry: RequestLogEntry,
	signal: AbortSignal,
): Promise<void> {
	entry.bytesSent = 0;
	res.once('close', () => {
		if (!res.writableFinished) entry.clientClosed = true;
	});
	await writer({
		res,
		signal,
		sent: (bytes) => (entry.bytesSent = (entry.bytesSent ?? 0) + bytes),
	});
}

export async function startServer(
	core: SandboxCore,
	admin: SandboxAdmin,
	adminToken: string,
	port: number,
	redirectTarget: RedirectTarget,
): Promise<RunningServer> {
	const closing = new AbortController();
	const handleAdmin = createAdminHandler(admin, core.log, redirectTarget, adminToken);
	const context = { signal: closing.signal, redirectOrigin: redirectTarget.origin };

	/** A network's delay one way (settings.latencyMs), cut short when the sandbox closes. */
	const hold = async () => {
		const ms = core.settings.latencyMs;
		if (ms > 0) await sleep(ms, undefined, { signal: closing.signal }).catch(() => undefined);
	};

	async function onRequest(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const isAdmin = url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`);
		// The request reaches the API a network's delay after it left (admin calls are not held).
		if (!isAdmin) await hold();
		const at = Date.now();
		const method = (req.method ?? 'GET').toUpperCase();
		const headers = flatHeaders(req);
		const query = Object.fromEntries(url.searchParams);
		const rawBody = await readBody(req);
		const fullPath = url.pathname;

		if (isAdmin) {
			const answer =
				rawBody === undefined
					? { status: 413, body: TOO_LARGE }
					: await handleAdmin({ method, path: fullPath, query, headers, rawBody });
			return send(res, answer.status, JSON.stringify(answer.body ?? null));
		}

		const seq = core.log.nextSeq();
		const inBase = fullPath.startsWith(`${API_BASE}/`);
		const path = inBase ? fullPath.slice(API_BASE.length) : fullPath;
		const answer: PartnerResponse =
			rawBody === undefined
				? { status: 413, body: JSON.stringify(TOO_LARGE), headers: {} }
				: await handlePartnerRequest(
						core,
						PARTNER_ROUTES,
						{ method, path, fullPath, search: url.search, inBase, query, headers, rawBody },
						context,
					);
		await hold();
		if (closing.signal.aborted) return;
		const clientClosed = req.socket.destroyed;
		const entry: RequestLogEntry = {
			seq,
			at,
			answeredAt: Date.now(),
			method,
			path,
			query,
			headers,
			body: bodyForLog(rawBody ?? ''),
			status: answer.drop ? 0 : answer.status,
			...(answer.replayed ? { replayed: true } : {}),
			...(answer.fault ? { fault: answer.fault } : {}),
			...(clientClosed ? { clientClosed: true } : {}),
		};
		if (answer.drop) {
			req.socket.destroy();
		} else if (answer.stream && !clientClosed) {
			// Logged before it starts: a trickle never ends, and a test reads the log meanwhile.
			core.log.add(entry);
			return await streamAnswer(res, answer.stream, entry, closing.signal);
		} else if (!clientClosed) {
			send(res, answer.status, answer.body, answer.headers, answer.contentType);
		}
		core.log.add(entry);
	}

	const server = createServer((req, res) => {
		onRequest(req, res).catch((error: unknown) => {
			if (res.headersSent || closing.signal.aborted) return void req.socket.destroy();
			send(res, 500, JSON.stringify({ code: 'INTERNAL_ERROR', message: String(error) }));
		});
	});
	return listenLocal(server, port, () => closing.abort());
}
