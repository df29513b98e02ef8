import type { Owner } from '../lib/n8nApi';
import type { Stack } from '../lib/stack';

export const E2E_OWNER: Owner = {
	email: 'e2e-owner@partner-logistics.example',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Passw0rd!',
};

// globalSetup and globalTeardown run in jest's main process but load their modules separately:
// the only thing they share is the process global.
const KEY = '__partnerLogisticsE2eStack';
type Running = { stack: Stack; workDir: string };

export function setRunningStack(stack: Stack, workDir: string) {
	(globalThis as Record<string, unknown>)[KEY] = { stack, workDir } satisfies Running;
}

export function runningStack(): Running | undefined {
	return (globalThis as Record<string, unknown>)[KEY] as Running | undefined;
}
