import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { workflowsDir } from './paths';
import type { SandboxInfo } from './sandbox';

/** Fixed ids, so the playground's links and the suite's assertions never change. */
export const CREDENTIAL_IDS = {
	full: 'plCredSandbox001',
	noSupport: 'plCredNoSupport1',
	badKey: 'plCredBadKey0001',
} as const;

export const WORKFLOW_IDS = {
	hubs: 'plWfHubsList0001',
	directBooking: 'plWfDirectBook01',
	goBulk: 'plWfGoBulkCredit',
	haul: 'plWfHaulTracking',
	supportCase: 'plWfSupportCase1',
	supportCaseNoCapability: 'plWfSupportNoCap',
	webhookEvents: 'plWfWebhookEvent',
} as const;

/** The trigger's production URL is /webhook/<webhookId>/<path> (no isFullPath). */
export const TRIGGER_WEBHOOK_ID = '5b0c7a52-6f1e-4c38-9d2a-7e4f1a9c3b10';
export const TRIGGER_PATH = 'partner-logistics';
export const triggerUrl = (n8nBaseUrl: string) =>
	`${n8nBaseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/${TRIGGER_PATH}`;

export const credentialName = {
	full: 'Partner Logistics sandbox',
	noSupport: 'Partner Logistics sandbox (key without support:create)',
	badKey: 'Partner Logistics sandbox (wrong key)',
};

/** A Standard Webhooks secret: whsec_ and 24 random bytes in base64. */
export function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface CredentialFixture {
	id: string;
	name: string;
	type: 'partnerLogisticsApi';
	data: {
		baseUrl: string;
		apiKey: string;
		webhookSigningSecret: string;
		previousWebhookSigningSecret: string;
	};
}

/** Credentials in `n8n import:credentials` form; n8n encrypts `data` on import. */
export function credentialsFor(
	sandbox: SandboxInfo,
	signingSecret: string,
	which: Array<keyof typeof CREDENTIAL_IDS> = ['full', 'noSupport'],
): CredentialFixture[] {
	const keys = {
		full: sandbox.keys.full,
		noSupport: sandbox.keys.noSupport,
		badKey: `sbx_a_full_${'0'.repeat(32)}`,
	};
	return which.map((name) => ({
		id: CREDENTIAL_IDS[name],
		name: credentialName[name],
		type: 'partnerLogisticsApi',
		data: {
			baseUrl: sandbox.url,
			apiKey: keys[name],
			webhookSigningSecret: signingSecret,
			previousWebhookSigningSecret: '',
		},
	}));
}

export interface WorkflowFixture {
	id: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

/**
 * The sample workflows in test/e2e/workflows. Steps that a Partner Logistics operator performs by
 * hand (issuing a quotation, assigning a truck, settling a card charge) are HTTP Request nodes
 * calling the sandbox's admin API; their address and token are placeholders filled in here.
 */
export function loadWorkflows(
	sandbox: Pick<SandboxInfo, 'origin' | 'adminToken'>,
): WorkflowFixture[] {
	return readdirSync(workflowsDir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const text = readFileSync(join(workflowsDir, file), 'utf8')
				.replaceAll('__SANDBOX_ORIGIN__', sandbox.origin)
				.replaceAll('__SANDBOX_ADMIN_TOKEN__', sandbox.adminToken);
			return JSON.parse(text) as WorkflowFixture;
		});
}

/**
 * The support case workflow again, run with the key that lacks support:create: the suite's
 * check that the capability error reaches the user. Not a sample for the playground.
 */
export function supportCaseWithoutCapability(workflows: WorkflowFixture[]): WorkflowFixture {
	const original = workflows.find((workflow) => workflow.id === WORKFLOW_IDS.supportCase);
	if (!original) throw new Error('support case workflow fixture missing');
	const copy = JSON.parse(JSON.stringify(original)) as WorkflowFixture;
	copy.id = WORKFLOW_IDS.supportCaseNoCapability;
	copy.name = `${original.name} (key without support:create)`;
	for (const node of copy.nodes) {
		if (node.credentials?.partnerLogisticsApi) {
			node.credentials.partnerLogisticsApi = {
				id: CREDENTIAL_IDS.noSupport,
				name: credentialName.noSupport,
			};
		}
	}
	return copy;
}
