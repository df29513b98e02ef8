import type { N8nServer } from '../../e2e/lib/n8nProcess';
import { stopAll } from '../../e2e/lib/processes';
import type { RegistryStandIn } from '../../e2e/lib/registryStandIn';
import type { Service } from '../../e2e/lib/services';
import type { Stack } from '../../e2e/lib/stack';

// globalSetup and globalTeardown load their modules separately: they share the process global.
const KEY = '__partnerLogisticsQueueStack';
interface Running {
	workDir: string;
	services: Service[];
	stack?: Stack;
	roles?: N8nServer[];
	registry?: RegistryStandIn;
}

export function setRunning(running: Running) {
	(globalThis as Record<string, unknown>)[KEY] = running;
}

export function running(): Running | undefined {
	return (globalThis as Record<string, unknown>)[KEY] as Running | undefined;
}

/**
 * Stops in dependency order: the worker and webhook processes, then the main and the sandbox,
 * then Postgres and Redis (n8n shuts down cleanly while its database is still up); finally
 * anything else the suite started.
 */
export async function stopRunning(): Promise<void> {
	const current = running();
	if (current) {
		await Promise.all((current.roles ?? []).map((role) => role.stop()));
		await current.stack?.stop();
		await Promise.all(current.services.map((service) => service.stop()));
		await current.registry?.stop();
	}
	await stopAll();
}
