// A local, in-memory Partner Logistics API for tests, benchmarks, the e2e suite and the playground.
import { randomBytes, randomInt } from 'node:crypto';

import { createAdmin } from './admin';
import { SandboxCore } from './core';
import { ACTIVE_HUB_IDS, INACTIVE_HUB_IDS, makeKeys, SAVED_CARDS } from './fixtures';
import { startRedirectTarget } from './redirectTarget';
import { API_BASE, startServer } from './server';
import type { Sandbox, SandboxOptions } from './types';

export * from './types';
export { ApiError as SandboxError } from './errors';
export { INTERNAL_NOTE_MARKER } from './routes/supportCases';
export {
	decodeWebhookSecret,
	generateWebhookSecret,
	signStandardWebhook,
	WEBHOOK_MODES,
} from './webhook';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const keys = makeKeys(options.keys);
	const adminToken = options.adminToken ?? `adm_${randomBytes(16).toString('hex')}`;
	const core = new SandboxCore(
		{
			quoteTtlMs: options.quoteTtlMs ?? FIFTEEN_MINUTES,
			rateLimitPerSecond: options.rateLimitPerSecond ?? null,
			rateHeaders: options.rateHeaders ?? false,
			latencyMs: options.latencyMs ?? 0,
			listShape: options.listShape ?? 'array',
			replayRefusals: options.replayRefusals ?? false,
			repeatActions: options.repeatActions ?? false,
		},
		options.seed ?? randomInt(2 ** 31),
		keys,
	);
	const redirectTarget = await startRedirectTarget();
	try {
		const admin = createAdmin(core, redirectTarget);
		// Same checks as the admin calls, so a bad option fails at start, not mid-test.
		admin.setQuoteTtl(core.settings.quoteTtlMs);
		admin.setRateLimit(core.settings.rateLimitPerSecond, { headers: core.settings.rateHeaders });
		admin.setLatency(core.settings.latencyMs);
		admin.setReplayRefusals(core.settings.replayRefusals);
		admin.setRepeatActions(core.settings.repeatActions);
		if (!['array', 'cursor'].includes(core.settings.listShape)) {
			throw new Error(`listShape must be 'array' or 'cursor'; got ${String(options.listShape)}`);
		}
		const server = await startServer(core, admin, adminToken, options.port ?? 0, redirectTarget);
		const [enabled, notEnabled] = SAVED_CARDS.A;

		return {
			url: `${server.origin}${API_BASE}`,
			origin: server.origin,
			keys,
			adminToken,
			hubs: { active: [...ACTIVE_HUB_IDS], inactive: [...INACTIVE_HUB_IDS] },
			savedCards: { enabled: enabled.paymentMethodId, notEnabled: notEnabled.paymentMethodId },
			redirectTarget: {
				origin: redirectTarget.origin,
				requests: redirectTarget.requests,
				clear: redirectTarget.clear,
			},
			requests: (filter) => core.log.list(filter),
			clearLog: () => core.log.clear(),
			admin,
			close: async () => {
				await Promise.all([server.close(), redirectTarget.close()]);
			},
		};
	} catch (error) {
		await redirectTarget.close();
		throw error;
	}
}
