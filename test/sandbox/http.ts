// HTTP plumbing shared by the sandbox and its redirect target: whole bodies, flat headers, JSON
// answers, and a 127.0.0.1 listener whose close() destroys every socket.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const MAX_BODY_BYTES = 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

export interface RunningServer {
	origin: string;
	close(): Promise<void>;
}

/** The body as text, or undefined when it exceeds 1 MB. */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
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

export function flatHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}

export function send(
	res: ServerResponse,
	status: number,
	body: string,
	headers: Record<string, string> = {},
	contentType = JSON_TYPE,
) {
	res.writeHead(status, {
		'content-type': contentType,
		'content-length': Buffer.byteLength(body),
		...headers,
	});
	res.end(body);
}

/** Parsed JSON, the raw string when it is not JSON, undefined when empty. */
export function bodyForLog(raw: string): unknown {
	if (raw === '') return undefined;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

/** Listens on 127.0.0.1:port (0 = free port); close() runs onClose, then ends every socket. */
export async function listenLocal(
	server: Server,
	port: number,
	onClose: () => void = () => {},
): Promise<RunningServer> {
	const sockets = new Set<Socket>();
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
				onClose();
				server.close((error) => (error ? reject(error) : resolve()));
				for (const socket of sockets) socket.destroy();
			});
			return closed;
		},
	};
}
