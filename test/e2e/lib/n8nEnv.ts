import { join } from 'node:path';

import { runtimeDir } from './paths';

export interface N8nInstance {
	/** N8N_USER_FOLDER: n8n keeps its database, settings and community packages in `.n8n/` below. */
	userFolder: string;
	port: number;
	/** Task runner broker of the server; CLI commands beside it get another one each. */
	brokerPort: number;
	logDir: string;
	encryptionKey: string;
	/** Settings every process of this instance shares (e.g. queue mode's database and Redis). */
	env?: Record<string, string>;
}

export const n8nDataDir = (instance: N8nInstance) => join(instance.userFolder, '.n8n');
export const n8nBaseUrl = (instance: N8nInstance) => `http://127.0.0.1:${instance.port}`;
export const n8nLogFile = (instance: N8nInstance) => join(instance.logDir, 'n8n.log');

// n8n's own settings, npm's and jest's: under jest NODE_ENV is "test", and n8n then exits with
// code 1 without a word.
const INHERITED_BUT_IGNORED =
	/^(N8N_|DB_|EXECUTIONS_|WEBHOOK_URL$|npm_|NODE_OPTIONS$|NODE_ENV$|JEST_|TS_NODE_|GENERIC_TIMEZONE$)/;

/**
 * The environment of an isolated n8n (see shared notes "real-n8n"): its own user folder and
 * ports, loopback only, no calls home, every execution saved so the suite can read it back.
 * Nothing of the caller's environment that could change n8n's behaviour leaks in.
 */
export function n8nEnv(
	instance: N8nInstance,
	overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !INHERITED_BUT_IGNORED.test(name)),
	);
	return {
		...inherited,
		PATH: `${join(runtimeDir, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: instance.userFolder,
		N8N_PORT: String(instance.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${n8nBaseUrl(instance)}/`,
		WEBHOOK_URL: `${n8nBaseUrl(instance)}/`,
		N8N_WEBHOOK_URL: `${n8nBaseUrl(instance)}/`,
		N8N_ENCRYPTION_KEY: instance.encryptionKey,
		N8N_RUNNERS_BROKER_PORT: String(instance.brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_PUBLIC_API_DISABLED: 'false',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		N8N_LOG_OUTPUT: 'console,file',
		N8N_LOG_FILE_LOCATION: n8nLogFile(instance),
		N8N_LOG_LEVEL: 'info',
		...instance.env,
		...overrides,
	};
}
