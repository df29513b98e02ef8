import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	credentialsFor,
	loadWorkflows,
	newSigningSecret,
	supportCaseWithoutCapability,
	TRIGGER_WORKFLOW_IDS,
} from '../lib/fixtures';
import { installCleanupHooks } from '../lib/processes';
import { startStack } from '../lib/stack';
import { STACK_FILE_ENV, type SuiteContext } from '../lib/suiteContext';
import { archiveRun } from './archive';
import { E2E_OWNER, setRunningStack } from './state';

/**
 * Starts the sandbox and a real n8n with the packed package installed, imports the credentials
 * and workflows, activates the trigger workflows. Runs once, in jest's main process.
 */
export default async function globalSetup(): Promise<void> {
	const workDir = mkdtempSync(join(tmpdir(), 'partner-logistics-e2e-'));
	installCleanupHooks({
		onSignal: (signal) => console.error(`\ne2e: ${signal}: stopping n8n and the sandbox…`),
		afterStop: () => archiveRun(workDir),
	});
	const started = Date.now();
	const signingSecret = newSigningSecret();
	const log = (line: string) => process.stderr.write(`e2e: ${line}\n`);
	log(`work folder ${workDir}`);
	// startStack stops what it started when it fails; jest runs no teardown after a failed setup.
	const stack = await startStack({
		workDir,
		owner: E2E_OWNER,
		apiKey: true,
		// Debug level: the secrets check then reads the most n8n ever writes.
		n8nEnv: { N8N_LOG_LEVEL: 'debug' },
		fixtures: (sandbox) => {
			const workflows = loadWorkflows(sandbox);
			return {
				credentials: credentialsFor(sandbox, signingSecret, ['full', 'noSupport', 'badKey']),
				workflows: [...workflows, supportCaseWithoutCapability(workflows)],
				activate: TRIGGER_WORKFLOW_IDS,
			};
		},
		log,
	}).catch((error: unknown) => {
		archiveRun(workDir);
		throw error;
	});
	setRunningStack(stack, workDir);

	const context: SuiteContext = {
		n8nBaseUrl: stack.n8n.baseUrl,
		auth: stack.client.auth(),
		sandbox: stack.sandbox.info,
		signingSecret,
		workDir,
		logDir: stack.instance.logDir,
		userFolder: stack.instance.userFolder,
	};
	const file = join(workDir, 'suite.json');
	writeFileSync(file, JSON.stringify(context));
	process.env[STACK_FILE_ENV] = file;
	log(`n8n ${stack.n8n.baseUrl} and the sandbox are ready after ${Date.now() - started} ms`);
}
