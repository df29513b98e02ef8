import { join } from 'node:path';

import type { Owner } from '../test/e2e/lib/n8nApi';
import { repoRoot } from '../test/e2e/lib/paths';

/** Shared by the playground (dev.ts) and the screenshot script. */
export const playgroundDir = join(repoRoot, '.n8n-playground');

export const playgroundPorts = {
	n8n: Number(process.env.PLAYGROUND_N8N_PORT ?? 5678),
	sandbox: Number(process.env.PLAYGROUND_SANDBOX_PORT ?? 4010),
};

// A local, loopback-only instance: a fixed, printed login is what makes it one command.
export const PLAYGROUND_OWNER: Owner = {
	email: 'playground@partner-logistics.example',
	firstName: 'Playground',
	lastName: 'Owner',
	password: 'Playground-1',
};
