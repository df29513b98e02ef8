import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import {
	type CredentialFixture,
	sandboxCredential,
	templateWorkflow,
	type WorkflowFixture,
} from '../../e2e/lib/fixtures';
import { N8nClient } from '../../e2e/lib/n8nApi';
import type { N8nInstance } from '../../e2e/lib/n8nEnv';
import { PACKAGE_NAME } from '../../e2e/lib/communityPackage';
import { repoRoot } from '../../e2e/lib/paths';
import { PG_BIN } from '../../e2e/lib/services';
import { SandboxAdmin } from '../../e2e/lib/sandbox';
import type { SuiteContext } from '../../e2e/lib/suiteContext';

/** Fixed ids of the queue suite's own workflows (test/queue/workflows) and of the recipe. */
export const QUEUE_WORKFLOWS = {
	quoteBooking: 'plQWfQuoteBook01',
	supportNoCapability: 'plQWfSupportNoCap',
	eventsPlain: 'plQWfEventsPlain',
	eventsRemoveDuplicates: 'plQWfEventsRmDup',
	eventsRecipe: 'plQWfEventsClaim',
	executionRetry: 'plQWfExecRetry01',
	subflowOrders: 'plQWfSubflowOrdr',
	subflowBook: 'plQWfBookSubflow',
} as const;

/** The three ways of receiving events that the suite measures, with each trigger's webhookId. */
export const EVENT_SETUPS = {
	plain: {
		workflowId: QUEUE_WORKFLOWS.eventsPlain,
		webhookId: '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f902',
	},
	removeDuplicates: {
		workflowId: QUEUE_WORKFLOWS.eventsRemoveDuplicates,
		webhookId: '5f607182-93a4-45b6-87c8-e9f0a1b2c335',
	},
	postgresClaim: {
		workflowId: QUEUE_WORKFLOWS.eventsRecipe,
		webhookId: 'cfb424d4-eec7-418d-b6a0-ed1084ace3f0',
	},
} as const;
export type EventSetup = keyof typeof EVENT_SETUPS;

export const queueWorkflowsDir = join(repoRoot, 'test/queue/workflows');
export const POSTGRES_CREDENTIAL = { id: 'plCredPostgres01', name: 'Event claims database' };
/**
 * The package as every queue-mode process gets it here: from N8N_COMMUNITY_PACKAGES, installed by
 * n8n itself at start (README, Running at scale).
 */
export function packageFromEnv(version: string): Record<string, string> {
	return {
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version }]),
		// A process that starts without the package (a new container) installs it at start too.
		N8N_REINSTALL_MISSING_PACKAGES: 'true',
	};
}

/** The database the recipe's Postgres node claims event ids in; n8n's own is another one. */
export const EVENTS_DATABASE = 'partner_events';

/**
 * The shipped template as a user would set it up: imported, its two credentials chosen. The suite
 * tests the very file the README points to.
 */
export function recipeWorkflow(): WorkflowFixture {
	return templateWorkflow('exactly-once-events.json', QUEUE_WORKFLOWS.eventsRecipe, {
		partnerLogisticsApi: sandboxCredential,
		postgres: POSTGRES_CREDENTIAL,
	});
}

/** n8n's own Postgres credential type, in `n8n import:credentials` form. */
export function postgresCredential(port: number, user: string): CredentialFixture {
	// n8n imports any credential type; the fixture type only names this package's own.
	return {
		...POSTGRES_CREDENTIAL,
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port,
			database: EVENTS_DATABASE,
			user,
			password: '',
			ssl: 'disable',
		},
	} as unknown as CredentialFixture;
}

/** What globalSetup hands the specs, through the file named by QUEUE_STACK_FILE. */
export interface QueueContext extends SuiteContext {
	/** Base URLs of the two webhook processes, A and B. */
	webhookProcesses: [string, string];
	/** What every n8n process of the instance shares (its env: queue mode, the package from env). */
	instance: N8nInstance;
	/** Paths the registry stand-in served, as of the end of the set-up. */
	registryRequests: string[];
	/** n8n's log file (JSON lines) of each process. */
	logFiles: { main: string; worker: string; webhookA: string; webhookB: string };
	postgres: { port: number; user: string };
}

export const QUEUE_STACK_FILE_ENV = 'QUEUE_STACK_FILE';

export function loadQueueSuite(): QueueContext & { client: N8nClient; admin: SandboxAdmin } {
	const file = process.env[QUEUE_STACK_FILE_ENV];
	if (!file) throw new Error(`${QUEUE_STACK_FILE_ENV} is not set: run npm run test:queue`);
	const context = JSON.parse(readFileSync(file, 'utf8')) as QueueContext;
	return {
		...context,
		client: N8nClient.restore(context.n8nBaseUrl, context.auth),
		admin: new SandboxAdmin(context.sandbox),
	};
}

/** A trigger's production URL on one webhook process. */
export const eventUrl = (processBaseUrl: string, setup: EventSetup) =>
	`${processBaseUrl}/webhook/${EVENT_SETUPS[setup].webhookId}/partner-logistics`;

/**
 * An empty database in the suite's Postgres, for a spec that runs n8n processes of its own (one
 * that restarts the main or kills a worker must not take the suite's down with it).
 */
export async function createDatabase(postgres: QueueContext['postgres'], name: string) {
	await promisify(execFile)(join(PG_BIN, 'psql'), [
		...['-h', '127.0.0.1', '-p', String(postgres.port), '-U', postgres.user],
		...['-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', `CREATE DATABASE ${name}`],
	]);
}
