import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';

import { PACKAGE_NAME } from './communityPackage';

const run = promisify(execFile);
/** Where n8n 2.41.1 fetches community packages from: N8N_COMMUNITY_PACKAGES_REGISTRY needs a license. */
const REGISTRY_HOST = 'registry.npmjs.org';

export interface RegistryStandIn {
	/** For every n8n process: the proxy, the CA it trusts, npm's own cache. */
	env: Record<string, string>;
	/** Paths asked for, in order (the packument, the version, the tarball). */
	requests: string[];
	stop(): Promise<void>;
}

/**
 * The npm registry as n8n's community package service reaches it, for our unpublished package:
 * an HTTPS proxy (HTTPS_PROXY) that answers for registry.npmjs.org itself, with a certificate of
 * a throwaway CA the n8n processes trust (NODE_EXTRA_CA_CERTS), and serves this package's
 * packument, version and tarball. Every other host is refused (n8n's calls home fail quietly).
 * n8n then installs the package from N8N_COMMUNITY_PACKAGES exactly as it would from npm: its
 * registry checks, `npm pack`, `npm install`, the database record.
 */
export async function startRegistryStandIn(
	workDir: string,
	tarball: string,
	version: string,
): Promise<RegistryStandIn> {
	const dir = join(workDir, 'registry');
	mkdirSync(dir, { recursive: true });
	const { ca, key, cert } = await certificates(dir);
	const bytes = readFileSync(tarball);
	const file = `${PACKAGE_NAME}-${version}.tgz`;
	const manifest = {
		...(JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as Record<
			string,
			unknown
		>),
		_id: `${PACKAGE_NAME}@${version}`,
		dist: {
			tarball: `https://${REGISTRY_HOST}/${PACKAGE_NAME}/-/${file}`,
			shasum: createHash('sha1').update(bytes).digest('hex'),
			integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
		},
	};
	const packument = {
		_id: PACKAGE_NAME,
		name: PACKAGE_NAME,
		'dist-tags': { latest: version },
		versions: { [version]: manifest },
	};
	const requests: string[] = [];
	const registry = createServer((req: IncomingMessage, res: ServerResponse) => {
		const path = decodeURIComponent(new URL(req.url ?? '/', `https://${REGISTRY_HOST}`).pathname);
		requests.push(path);
		const answers: Record<string, [string, string | Buffer]> = {
			[`/${PACKAGE_NAME}`]: ['application/json', JSON.stringify(packument)],
			[`/${PACKAGE_NAME}/${version}`]: ['application/json', JSON.stringify(manifest)],
			[`/${PACKAGE_NAME}/latest`]: ['application/json', JSON.stringify(manifest)],
			[`/${PACKAGE_NAME}/-/${file}`]: ['application/octet-stream', bytes],
		};
		const [type, body] = answers[path] ?? ['application/json', '{"error":"Not found"}'];
		res.writeHead(answers[path] ? 200 : 404, { 'content-type': type }).end(body);
	});
	const proxy = createServer((_req, res) => res.writeHead(403).end());
	proxy.on('connect', (req: IncomingMessage, socket: Socket) => {
		if (req.url !== `${REGISTRY_HOST}:443`) {
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		registry.emit('connection', new TLSSocket(socket, { isServer: true, key, cert }));
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
	return {
		env: {
			HTTPS_PROXY: proxyUrl,
			https_proxy: proxyUrl,
			NO_PROXY: '127.0.0.1,localhost',
			no_proxy: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: ca,
			// npm trusts the CA file its npmrc names (`cafile`), not NODE_EXTRA_CA_CERTS; it only
			// talks to the stand-in here.
			npm_config_cafile: ca,
			// npm's cache of its own, so the stand-in's answers never reach the machine's.
			npm_config_cache: join(dir, 'npm-cache'),
		},
		requests,
		stop: async () => {
			proxy.closeAllConnections();
			registry.closeAllConnections();
			await new Promise<void>((resolve) => proxy.close(() => resolve()));
		},
	};
}

/** A throwaway CA, and a certificate it signs for the registry's host name. */
async function certificates(dir: string) {
	const path = (name: string) => join(dir, name);
	const days = ['-days', '2'];
	await run('openssl', [
		...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', ...days],
		...['-keyout', path('ca.key'), '-out', path('ca.pem')],
		...['-subj', '/CN=Partner Logistics test registry CA'],
		...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=keyCertSign'],
	]);
	await run('openssl', [
		...['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('host.key')],
		...['-out', path('host.csr'), '-subj', `/CN=${REGISTRY_HOST}`],
	]);
	const ext = path('host.ext');
	writeFileSync(ext, `subjectAltName=DNS:${REGISTRY_HOST}\n`);
	await run('openssl', [
		...['x509', '-req', '-in', path('host.csr'), '-CA', path('ca.pem'), '-CAkey', path('ca.key')],
		...['-CAcreateserial', '-out', path('host.pem'), ...days, '-extfile', ext],
	]);
	return {
		ca: path('ca.pem'),
		key: readFileSync(path('host.key')),
		cert: readFileSync(path('host.pem')),
	};
}
