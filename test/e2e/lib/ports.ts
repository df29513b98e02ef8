import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now (the OS picks it; a small race is acceptable in tests). */
export function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolvePort(port));
		});
	});
}

/** Whether something already listens on 127.0.0.1:port. */
export function portInUse(port: number): Promise<boolean> {
	return new Promise((resolveInUse) => {
		const server = createServer();
		server.once('error', () => resolveInUse(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolveInUse(false)));
	});
}
