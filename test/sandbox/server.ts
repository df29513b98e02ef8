// The HTTP server: reads each request whole, sends it to the admin or partner side, logs partner
// calls, and on close destroys every socket so no handle outlives the sandbox.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { createAdminHandler } from './adminRoutes';
import type { SandboxCore } from './core';
import { handlePartnerRequest, type PartnerResponse } from './pipeline';
import { PARTNER_ROUTES } from './routes';
import type { SandboxAdmin } from './types';

export const API_BASE = '/api/v1';
const ADMIN_PREFIX = '/__admin';
const MAX_BODY_BYTES = 1024 * 1024;
const TOO_LARGE = { code: 'PAYLOAD_TOO_LARGE', message: 'The request body exceeds 1 MB.' };

export interface RunningServer {
	origin: string;
	close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_BODY_BYTES) chunks.push(chunk);
		});
		req.on('end', () =>
			resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString()),
		);
		req.on('error', reject);
	});
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}

function sendJson(
	res: ServerResponse,
	status: number,
	body: string,
	headers: Record<string, string> = {},
) {
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(body),
		...headers,
	});
	res.end(body);
}

function bodyForLog(raw: string): unknown {
	if (raw === '') return undefined;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

export async function startServer(
	core: SandboxCore,
	admin: SandboxAdmin,
	adminToken: string,
	port: number,
): Promise<RunningServer> {
	const sockets = new Set<Socket>();
	const closing = new AbortController();
	const handleAdmin = createAdminHandler(admin, core.log, adminToken);

	async function onRequest(req: IncomingMessage, res: ServerResponse) {
		const at = Date.now();
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const headers = flatHeaders(req);
		const query = Object.fromEntries(url.searchParams);
		const rawBody = await readBody(req);
		const fullPath = url.pathname;

		if (fullPath === ADMIN_PREFIX || fullPath.startsWith(`${ADMIN_PREFIX}/`)) {
			const answer =
				rawBody === undefined
					? { status: 413, body: TOO_LARGE }
					: await handleAdmin({ method, path: fullPath, query, headers, rawBody });
			return sendJson(res, answer.status, JSON.stringify(answer.body ?? null));
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
						{ method, path, fullPath, inBase, query, headers, rawBody },
						closing.signal,
					);
		if (closing.signal.aborted) return;
		if (answer.drop) {
			req.socket.destroy();
		} else {
			sendJson(res, answer.status, answer.body, answer.headers);
		}
		core.log.add({
			seq,
			at,
			method,
			path,
			query,
			headers,
			body: bodyForLog(rawBody ?? ''),
			status: answer.drop ? 0 : answer.status,
			...(answer.replayed ? { replayed: true } : {}),
		});
	}

	const server = createServer((req, res) => {
		onRequest(req, res).catch((error: unknown) => {
			if (res.headersSent || closing.signal.aborted) return void req.socket.destroy();
			sendJson(res, 500, JSON.stringify({ code: 'INTERNAL_ERROR', message: String(error) }));
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('sandbox: no TCP address');

	let closed: Promise<void> | undefined;
	return {
		origin: `http://127.0.0.1:${address.port}`,
		close() {
			closed ??= new Promise<void>((resolve, reject) => {
				closing.abort();
				server.close((error) => (error ? reject(error) : resolve()));
				for (const socket of sockets) socket.destroy();
			});
			return closed;
		},
	};
}
