import { readFileSync } from 'node:fs';

import { N8nClient, type SessionAuth } from './n8nApi';
import { SandboxAdmin, type SandboxInfo } from './sandbox';

/** What globalSetup hands the specs (through a JSON file named by E2E_STACK_FILE). */
export interface SuiteContext {
	n8nBaseUrl: string;
	auth: SessionAuth;
	sandbox: SandboxInfo;
	signingSecret: string;
	workDir: string;
	logDir: string;
	userFolder: string;
}

export const STACK_FILE_ENV = 'E2E_STACK_FILE';

export function loadSuite(): SuiteContext & { client: N8nClient; admin: SandboxAdmin } {
	const file = process.env[STACK_FILE_ENV];
	if (!file) throw new Error(`${STACK_FILE_ENV} is not set: run the suite with npm run test:e2e`);
	const context = JSON.parse(readFileSync(file, 'utf8')) as SuiteContext;
	return {
		...context,
		client: N8nClient.restore(context.n8nBaseUrl, context.auth),
		admin: new SandboxAdmin(context.sandbox),
	};
}
