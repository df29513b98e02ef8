import { join } from 'node:path';

import type { N8nInstance } from './n8nEnv';
import { type N8nServer, startN8nProcess } from './n8nProcess';
import { freePort } from './ports';

/**
 * n8n's queue mode (shared notes "real-n8n", Queue mode): every process, CLI commands included,
 * shares one database, one Redis and one encryption key. The main process takes no production
 * webhooks (N8N_DISABLE_PRODUCTION_MAIN_PROCESS): webhook processes do, workers run executions.
 */
export function queueEnv(services: {
	postgresPort: number;
	postgresUser: string;
	database: string;
	redisPort: number;
}): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(services.redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(services.postgresPort),
		DB_POSTGRESDB_DATABASE: services.database,
		DB_POSTGRESDB_USER: services.postgresUser,
		DB_POSTGRESDB_PASSWORD: '',
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
	};
}

/** Each process's own log file in the instance's log folder, e.g. `n8n-worker.log`. */
export const roleLogFile = (instance: N8nInstance, role: string) =>
	join(instance.logDir, `n8n-${role}.log`);

/**
 * A worker (`n8n worker`) of the instance. Its health check listens on its own port: by default
 * it would take 5678, which may be the main's.
 */
export async function startWorker(
	instance: N8nInstance,
	name: string,
	env: Record<string, string> = {},
): Promise<N8nServer> {
	const healthPort = await freePort();
	return startN8nProcess(
		{ ...instance, port: await freePort(), brokerPort: await freePort() },
		{
			command: 'worker',
			name,
			healthPort,
			env: {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				N8N_LOG_FILE_LOCATION: roleLogFile(instance, name),
				...env,
			},
		},
	);
}

/** A webhook process (`n8n webhook`) answering production webhook URLs on a port of its own. */
export async function startWebhookProcess(
	instance: N8nInstance,
	name: string,
	env: Record<string, string> = {},
): Promise<N8nServer> {
	return startN8nProcess(
		{ ...instance, port: await freePort(), brokerPort: await freePort() },
		{
			command: 'webhook',
			name,
			env: { N8N_LOG_FILE_LOCATION: roleLogFile(instance, name), ...env },
		},
	);
}
