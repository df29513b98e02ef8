import { execFile } from 'node:child_process';
import { chmodSync, chownSync, closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { waitFor } from './http';
import { freePort } from './ports';
import { repoRoot } from './paths';
import { type Started, startGuarded, stopStarted } from './processes';

/**
 * Postgres and Redis from the Debian packages (`scripts/debian-deps.sh queue` installs them), each
 * run as a process of ours on 127.0.0.1 with a throwaway data folder: never the system services.
 */

const run = promisify(execFile);
export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface Service {
	port: number;
	process: Started;
	stop(): Promise<void>;
}

export interface Postgres extends Service {
	/** Superuser created by initdb; trust authentication on 127.0.0.1, so no password. */
	user: string;
	/** Runs SQL through psql against `database` and returns its unaligned, tuples-only output. */
	sql(database: string, statement: string): Promise<string>;
}

// initdb and postgres refuse to run as root: as root they run as the `postgres` system user.
const asRoot = process.getuid?.() === 0;
const asPostgres = (command: string, args: string[]): [string, string[]] =>
	asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

/**
 * Postgres with its data in `<workDir>/postgres` (gone with the work folder, whatever way the run
 * ends) and its log in `logDir`; `databases` are created empty.
 */
export async function startPostgres(
	workDir: string,
	logDir: string,
	databases: string[],
): Promise<Postgres> {
	const dataRoot = join(workDir, 'postgres');
	mkdirSync(dataRoot);
	if (asRoot) {
		// The postgres user must own its folder and be able to reach it through the work folder.
		chmodSync(workDir, 0o711);
		const { stdout: uid } = await run('id', ['-u', 'postgres']);
		const { stdout: gid } = await run('id', ['-g', 'postgres']);
		chownSync(dataRoot, Number(uid), Number(gid));
	}
	const dataDir = join(dataRoot, 'data');
	const user = 'n8n';
	await run(...asPostgres(join(PG_BIN, 'initdb'), ['-U', user, '--auth=trust', '-D', dataDir]));
	const port = await freePort();
	const out = openSync(join(logDir, 'postgres.log'), 'a');
	const [command, args] = asPostgres(join(PG_BIN, 'postgres'), [
		...['-D', dataDir, '-p', String(port), '-k', dataRoot],
		...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
	]);
	const started = startGuarded('postgres', command, args, {
		cwd: repoRoot,
		env: process.env,
		stdio: ['ignore', out, out],
	});
	closeSync(out);
	const stop = async () => {
		await stopStarted(started);
		rmSync(dataRoot, { recursive: true, force: true });
	};
	const sql = async (database: string, statement: string) => {
		const { stdout } = await run(join(PG_BIN, 'psql'), [
			...['-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', database],
			...['-v', 'ON_ERROR_STOP=1', '-At', '-c', statement],
		]);
		return stdout.trim();
	};
	try {
		await waitFor('Postgres to accept connections', async () =>
			(await sql('postgres', 'SELECT 1')) === '1' ? true : undefined,
		);
		for (const database of databases) await sql('postgres', `CREATE DATABASE ${database}`);
	} catch (error) {
		await stop();
		throw error;
	}
	return { port, user, process: started, stop, sql };
}

export async function startRedis(workDir: string, logDir: string): Promise<Service> {
	const port = await freePort();
	const dir = join(workDir, 'redis');
	mkdirSync(dir);
	const out = openSync(join(logDir, 'redis.log'), 'a');
	const started = startGuarded(
		'redis',
		'redis-server',
		[
			...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
			// Nothing written to disk: the queue lives as long as the suite.
			...['--save', '', '--appendonly', 'no', '--daemonize', 'no'],
		],
		{ cwd: repoRoot, env: process.env, stdio: ['ignore', out, out] },
	);
	closeSync(out);
	const stop = async () => {
		await stopStarted(started);
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		await waitFor('Redis to accept connections', async () => {
			const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'PING']);
			return stdout.trim() === 'PONG' ? true : undefined;
		});
	} catch (error) {
		await stop();
		throw error;
	}
	return { port, process: started, stop };
}
