import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { templatesDir, workflowsDir } from './paths';
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
	bookingRetry: 'plWfBookRetry001',
	orderBatch: 'plWfOrderBatch01',
	multiStop: 'plWfMultiStop001',
	bookingTypedIn: 'plWfBookTypedIn1',
	quotationAnswers: 'plWfQuoteAnswers',
	eventsStripe: 'plWfEventsStripe',
	eventsHmac: 'plWfEventsHmac01',
	mcpTools: 'plWfMcpTools0001',
	executionRetry: 'plWfExecRetry001',
	supportCaseWatch: 'plWfCaseWatch001',
	subflowOrders: 'plWfSubflowOrder',
	subflowBook: 'plWfBookSubflow1',
	payBookings: 'plWfPayBookings1',
	goBulkWatch: 'plWfGoBulkWatch1',
	haulWatch: 'plWfHaulWatch001',
	dryRunBatch: 'plWfDryRunBatch1',
	mcpPreview: 'plWfMcpPreview01',
} as const;

/** One active trigger workflow per signature scheme, with the webhookId of its trigger node. */
export const TRIGGERS = {
	standardWebhooks: {
		workflowId: WORKFLOW_IDS.webhookEvents,
		webhookId: '5b0c7a52-6f1e-4c38-9d2a-7e4f1a9c3b10',
	},
	stripe: {
		workflowId: WORKFLOW_IDS.eventsStripe,
		webhookId: 'c7d3e9a1-4b2f-4e6a-9c1d-2f8b5a7e3d40',
	},
	hmacHeader: {
		workflowId: WORKFLOW_IDS.eventsHmac,
		webhookId: '0e6f2b8d-91a4-4c7e-b3f5-6d2a8c4e1b97',
	},
} as const;
export type TriggerScheme = keyof typeof TRIGGERS;

/**
 * The MCP Server Trigger of the AI tools sample (its Path parameter). Its webhooks set
 * isFullPath, so its Production URL is /mcp/<path>: a POST without a session starts Streamable
 * HTTP.
 */
export const MCP_SERVER = {
	workflowId: WORKFLOW_IDS.mcpTools,
	path: 'partner-logistics',
} as const;
export const mcpServerUrl = (n8nBaseUrl: string) => `${n8nBaseUrl}/mcp/${MCP_SERVER.path}`;

/** The MCP Server Trigger of the preview tools sample: its two tools have Options › Dry Run on. */
export const MCP_PREVIEW_SERVER = {
	workflowId: WORKFLOW_IDS.mcpPreview,
	path: 'partner-logistics-preview',
} as const;
export const mcpPreviewUrl = (n8nBaseUrl: string) => `${n8nBaseUrl}/mcp/${MCP_PREVIEW_SERVER.path}`;

/**
 * The Dry Run sample's Webhook (POST, answers once the batch is received): a batch posted there,
 * `{ dryRun, step, rows }`, runs the same nodes as Execute workflow does with the sample batch.
 */
export const DRY_RUN_WEBHOOK = {
	workflowId: WORKFLOW_IDS.dryRunBatch,
	path: 'partner-logistics-dry-run',
} as const;
export const dryRunWebhookUrl = (n8nBaseUrl: string) =>
	`${n8nBaseUrl}/webhook/${DRY_RUN_WEBHOOK.path}`;

/**
 * The workflows published on import: the signed-event triggers, the MCP servers, the Dry Run
 * sample's webhook and the booking sub-workflow (n8n 2.x runs a sub-workflow for a production or retried execution only once it
 * is published; n8n 1.x refuses to activate a workflow whose only trigger is the sub-workflow's,
 * and runs it unpublished: `stack.ts` skips it there).
 */
export const TRIGGER_WORKFLOW_IDS = [
	...Object.values(TRIGGERS).map((trigger) => trigger.workflowId),
	MCP_SERVER.workflowId,
	MCP_PREVIEW_SERVER.workflowId,
	DRY_RUN_WEBHOOK.workflowId,
	WORKFLOW_IDS.subflowBook,
];
/** Published only where n8n needs it: n8n 2.x (see TRIGGER_WORKFLOW_IDS). */
export const SUB_WORKFLOW_IDS: string[] = [WORKFLOW_IDS.subflowBook];

/** The trigger's production URL is /webhook/<webhookId>/<path> (no isFullPath). */
export const TRIGGER_PATH = 'partner-logistics';
export const triggerUrl = (n8nBaseUrl: string, scheme: TriggerScheme = 'standardWebhooks') =>
	`${n8nBaseUrl}/webhook/${TRIGGERS[scheme].webhookId}/${TRIGGER_PATH}`;

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
 * calling the sandbox's admin API; their address and token are placeholders filled in here, and
 * so are `values` (the IDs the watch samples watch: watches.ts, seedSampleRecords).
 */
export function loadWorkflows(
	sandbox: Pick<SandboxInfo, 'origin' | 'adminToken'>,
	dir = workflowsDir,
	values: Record<string, string> = {},
): WorkflowFixture[] {
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const text = Object.entries(values).reduce(
				(filled, [placeholder, value]) => filled.replaceAll(placeholder, value),
				readFileSync(join(dir, file), 'utf8')
					.replaceAll('__SANDBOX_ORIGIN__', sandbox.origin)
					.replaceAll('__SANDBOX_ADMIN_TOKEN__', sandbox.adminToken),
			);
			return JSON.parse(text) as WorkflowFixture;
		});
}

/** A credential as a workflow names it. */
export interface CredentialRef {
	id: string;
	name: string;
}

/** The sandbox credential with the full key, as a workflow names it. */
export const sandboxCredential: CredentialRef = {
	id: CREDENTIAL_IDS.full,
	name: credentialName.full,
};

/**
 * A workflow of docs/templates as a user sets it up: imported under `id`, unpublished, each
 * credential it names replaced by the one given for that credential type (a template ships with
 * empty credential ids: the user picks their own).
 */
export function templateWorkflow(
	file: string,
	id: string,
	credentials: Record<string, CredentialRef>,
): WorkflowFixture {
	const template = JSON.parse(readFileSync(join(templatesDir, file), 'utf8')) as WorkflowFixture;
	for (const node of template.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			if (credentials[type]) node.credentials![type] = { ...credentials[type] };
		}
	}
	return { ...template, id, active: false };
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

/** The polling trigger's node in the support case watch sample (16-support-case-watch.json). */
export const POLLING_TRIGGER = 'Partner Logistics Polling Trigger';

/**
 * A sample workflow whose polling triggers poll every `seconds` (a divisor of 60) instead of
 * every minute. n8n 2.41 refuses a Poll Time that fires more than once a minute (a Custom cron
 * whose seconds field is not one number), but checks each Poll Time alone: one Custom cron per
 * second of the minute to poll at is accepted, and polls through n8n's own scheduler as often as
 * a test needs.
 */
export function pollingEvery(
	workflows: WorkflowFixture[],
	id: string,
	seconds: number,
): WorkflowFixture {
	const original = workflows.find((workflow) => workflow.id === id);
	if (!original) throw new Error(`workflow fixture ${id} missing`);
	const copy = JSON.parse(JSON.stringify(original)) as WorkflowFixture;
	for (const trigger of copy.nodes.filter((node) => node.type.endsWith('PollingTrigger'))) {
		trigger.parameters.pollTimes = {
			item: Array.from({ length: 60 / seconds }, (_, index) => ({
				mode: 'custom',
				cronExpression: `${index * seconds} * * * * *`,
			})),
		};
	}
	return copy;
}

/** The support case watch polling every `seconds` (see pollingEvery). */
export const supportCaseWatchEvery = (workflows: WorkflowFixture[], seconds: number) =>
	pollingEvery(workflows, WORKFLOW_IDS.supportCaseWatch, seconds);

/**
 * The workflows of the answer-bounds specs: a quote with a 2 s Timeout and one connection retry,
 * support cases listed with a Limit from each row, every case listed (workflows 24 to 26), and a
 * quote request watch polling every minute (made from the support case watch by the spec).
 */
export const ANSWER_BOUNDS_WORKFLOW_IDS = {
	quoteTimeout2s: 'plWfTimeout2s001',
	listLimits: 'plWfListLimits01',
	listEveryCase: 'plWfListAllCases',
	quoteRequestWatch: 'plWfWatchEveryMn',
} as const;

/** The six home-to-home fields of a CLICK route, as an agent or a sheet row fills them in. */
export const CLICK_ROUTE = {
	pickupAddress: '12 Allen Avenue, Ikeja, Lagos',
	pickupLatitude: 6.6018,
	pickupLongitude: 3.3515,
	dropoffAddress: '5 Admiralty Way, Lekki, Lagos',
	dropoffLatitude: 6.4474,
	dropoffLongitude: 3.4728,
};
