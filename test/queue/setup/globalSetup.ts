import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { readFileSync } from 'node:fs';

import { credentialsFor, loadWorkflows, newSigningSecret } from '../../e2e/lib/fixtures';
import { n8nLogFile } from '../../e2e/lib/n8nEnv';
import { installCleanupHooks } from '../../e2e/lib/processes';
import { repoRoot } from '../../e2e/lib/paths';
import { queueEnv, roleLogFile, startWebhookProcess, startWorker } from '../../e2e/lib/queueMode';
import { type RegistryStandIn, startRegistryStandIn } from '../../e2e/lib/registryStandIn';
import { startPostgres, startRedis } from '../../e2e/lib/services';
import { startStack } from '../../e2e/lib/stack';
import { archiveRun } from '../../e2e/setup/archive';
import { E2E_OWNER } from '../../e2e/setup/state';
import {
	EVENT_SETUPS,
	EVENTS_DATABASE,
	packageFromEnv,
	postgresCredential,
	QUEUE_STACK_FILE_ENV,
	QUEUE_WORKFLOWS,
	type QueueContext,
	queueWorkflowsDir,
	recipeWorkflow,
} from './context';
import { setRunning, stopRunning } from './state';

/**
 * Postgres and Redis, then n8n in queue mode: the main (editor, REST and public API; no
 * production webhooks), one worker and two webhook processes. The packed package reaches them the
 * way the README tells queue-mode users to install it: from N8N_COMMUNITY_PACKAGES, which n8n's
 * main installs at start from the npm registry (here a stand-in serving the tarball). Runs once,
 * in jest's main process; whatever fails on the way stops everything started so far.
 */
export default async function globalSetup(): Promise<void> {
	const workDir = mkdtempSync(join(tmpdir(), 'partner-logistics-queue-'));
	const logDir = join(workDir, 'logs');
	mkdirSync(logDir, { recursive: true });
	installCleanupHooks({
		onSignal: (signal) => console.error(`\nqueue: ${signal}: stopping n8n and its services…`),
		afterStop: () => archiveRun(workDir, 'queue-last-run'),
	});
	const started = Date.now();
	const log = (line: string) => process.stderr.write(`queue: ${line}\n`);
	log(`work folder ${workDir}`);
	try {
		log('Starting Postgres and Redis…');
		const [postgres, redis] = await Promise.all([
			startPostgres(workDir, logDir, ['n8n', EVENTS_DATABASE]),
			startRedis(workDir, logDir),
		]);
		setRunning({ services: [postgres, redis], workDir });
		const signingSecret = newSigningSecret();
		const { version } = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as {
			version: string;
		};
		let registry: RegistryStandIn | undefined;
		const stack = await startStack({
			communityPackage: async (tarball) => {
				registry = await startRegistryStandIn(workDir, tarball, version);
				setRunning({ services: [postgres, redis], workDir, registry });
				return { ...registry.env, ...packageFromEnv(version) };
			},
			workDir,
			owner: E2E_OWNER,
			apiKey: true,
			instanceEnv: queueEnv({
				postgresPort: postgres.port,
				postgresUser: postgres.user,
				database: 'n8n',
				redisPort: redis.port,
			}),
			fixtures: (sandbox) => ({
				credentials: [
					...credentialsFor(sandbox, signingSecret, ['full', 'noSupport', 'badKey']),
					postgresCredential(postgres.port, postgres.user),
				],
				workflows: [...loadWorkflows(sandbox, queueWorkflowsDir), recipeWorkflow()],
				activate: [
					QUEUE_WORKFLOWS.quoteBooking,
					QUEUE_WORKFLOWS.supportNoCapability,
					QUEUE_WORKFLOWS.executionRetry,
					// n8n publishes a workflow only once the sub-workflows it calls are published.
					QUEUE_WORKFLOWS.subflowBook,
					QUEUE_WORKFLOWS.subflowOrders,
					...Object.values(EVENT_SETUPS).map((setup) => setup.workflowId),
				],
			}),
			log,
		});
		setRunning({ services: [postgres, redis], stack, workDir, registry });

		log('Starting a worker and webhook processes A and B…');
		const [worker, webhookA, webhookB] = await Promise.all([
			startWorker(stack.instance, 'worker'),
			startWebhookProcess(stack.instance, 'webhook-a'),
			startWebhookProcess(stack.instance, 'webhook-b'),
		]);
		setRunning({
			services: [postgres, redis],
			stack,
			roles: [worker, webhookA, webhookB],
			workDir,
			registry,
		});

		const context: QueueContext = {
			n8nBaseUrl: stack.n8n.baseUrl,
			auth: stack.client.auth(),
			sandbox: stack.sandbox.info,
			signingSecret,
			workDir,
			logDir,
			userFolder: stack.instance.userFolder,
			webhookProcesses: [webhookA.baseUrl, webhookB.baseUrl],
			instance: stack.instance,
			registryRequests: [...(registry?.requests ?? [])],
			logFiles: {
				main: n8nLogFile(stack.instance),
				worker: roleLogFile(stack.instance, 'worker'),
				webhookA: roleLogFile(stack.instance, 'webhook-a'),
				webhookB: roleLogFile(stack.instance, 'webhook-b'),
			},
			postgres: { port: postgres.port, user: postgres.user },
		};
		const file = join(workDir, 'suite.json');
		writeFileSync(file, JSON.stringify(context));
		process.env[QUEUE_STACK_FILE_ENV] = file;
		log(`queue-mode n8n is ready after ${Date.now() - started} ms`);
	} catch (error) {
		// jest runs no teardown after a failed global setup.
		await stopRunning();
		archiveRun(workDir, 'queue-last-run');
		throw error;
	}
}
