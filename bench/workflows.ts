// The workflows the real-n8n benches run: Webhook (answers when the last node is done) → Split Out
// (one item per element of the posted array) → the node under test. Every side gets the same
// trigger and the same items; only the last node differs.
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import type { CredentialFixture, WorkflowFixture } from '../test/e2e/lib/fixtures';
import type { SandboxInfo } from '../test/e2e/lib/sandbox';
import { ROUTE_FIELDS } from './routes';

export const NODE_UNDER_TEST = 'Node under test';
const PARTNER_NODE = 'n8n-nodes-partner-logistics.partnerLogistics';
/** Where the bench's n8n finds the transport floor's node (N8N_CUSTOM_EXTENSIONS). */
export const BENCH_EXTENSIONS = join(__dirname, 'transportFloor');

const CREDENTIALS = {
	partner: { id: 'plBenchCredApi01', name: 'Partner Logistics (bench)' },
	header: { id: 'plBenchCredHdr01', name: 'Partner Logistics key as header auth (bench)' },
};

/** One bench workflow: its id, the webhook path it listens on and the array it splits. */
export interface BenchWorkflow {
	id: string;
	path: string;
	/** The webhook body's field holding the items, e.g. `routes`. */
	itemsField: string;
	label: string;
	/** What the webhook answers once the workflow is done: nothing (default), or the first item. */
	answer?: 'noData' | 'firstEntryJson';
}

export const WORKFLOWS = {
	quoteExpressions: {
		id: 'plBenchQuoteExpr',
		path: 'bench-quote-expressions',
		itemsField: 'routes',
		label: '**Partner Logistics, Quote › Create, route from expressions**',
	},
	quoteInputFields: {
		id: 'plBenchQuoteIFld',
		path: 'bench-quote-input-fields',
		itemsField: 'routes',
		label: '**Partner Logistics, Quote › Create, Route Source: input fields**',
	},
	quoteDryRun: {
		id: 'plBenchQuoteDry1',
		path: 'bench-quote-dry-run',
		itemsField: 'routes',
		label: '**Partner Logistics, Quote › Create, route from expressions, Dry Run** (nothing sent)',
	},
	transportFloor: {
		id: 'plBenchQuoteFlor',
		path: 'bench-quote-transport-floor',
		itemsField: 'routes',
		label:
			"transport floor: each item POSTed through n8n's request helper, 20 at a time, nothing else",
	},
	httpRequest: {
		id: 'plBenchQuoteHttp',
		path: 'bench-quote-http-request',
		itemsField: 'routes',
		label: "n8n's HTTP Request node 4.2 (baseline)",
	},
	bookingPay: {
		id: 'plBenchBookPay01',
		path: 'bench-booking-pay',
		itemsField: 'bookings',
		label: 'Partner Logistics, Booking › Pay',
	},
	bookingPayHalfRate: {
		id: 'plBenchBookPay25',
		path: 'bench-booking-pay-25',
		itemsField: 'bookings',
		label: 'Partner Logistics, Booking › Pay, Max Requests per Second 25',
	},
	bookingSingle: {
		id: 'plBenchBookOne01',
		path: 'bench-booking-single',
		itemsField: 'quotes',
		label: 'Partner Logistics, Booking › Create, one booking per webhook call',
		answer: 'firstEntryJson',
	},
} satisfies Record<string, BenchWorkflow>;

export type WorkflowName = keyof typeof WORKFLOWS;

/**
 * Why the input-fields side cannot run on this build (n8n would refuse to publish its workflow),
 * or undefined when it can.
 */
export function inputFieldsMissing(): string | undefined {
	const file = join(__dirname, '../dist/nodes/PartnerLogistics/PartnerLogistics.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PartnerLogistics } = require(file) as { PartnerLogistics: new () => INodeType };
	const offered = new PartnerLogistics().description.properties.some(
		(property) =>
			property.name === 'routeSource' &&
			property.options?.some((option) => 'value' in option && option.value === 'inputFields') &&
			property.displayOptions?.show?.resource?.includes('quote'),
	);
	return offered
		? undefined
		: 'inputFields: this build has no Quote › Create parameter routeSource with the value ' +
				"'inputFields' (dist/nodes/PartnerLogistics), so the expression-free side did not run. " +
				'Merge main once the lead has added it, `npm run build`, and run the bench again.';
}

/**
 * Why the Dry Run side cannot run on this build (it has no Options › Dry Run), or undefined when
 * it can.
 */
export function dryRunMissing(): string | undefined {
	const file = join(__dirname, '../dist/nodes/PartnerLogistics/PartnerLogistics.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PartnerLogistics } = require(file) as { PartnerLogistics: new () => INodeType };
	const offered = new PartnerLogistics().description.properties.some(
		(property) =>
			property.name === 'options' &&
			property.options?.some((option) => 'name' in option && option.name === 'dryRun'),
	);
	return offered
		? undefined
		: 'dryRun: this build has no Options › Dry Run (dist/nodes/PartnerLogistics), so the Dry ' +
				'Run side did not run. `npm run build` on a commit that has it, and run the bench again.';
}

/**
 * The route of each incoming item, one `{{ $json.… }}` expression per field; with BENCH_PAREN=1,
 * `{{ ($json.…) }}`, the same values from expressions that are not a bare field read (so the node
 * evaluates them, in one call per item, instead of reading the field off the item).
 */
const fieldExpression = (field: string) =>
	process.env.BENCH_PAREN ? `={{ ($json.${field}) }}` : `={{ $json.${field} }}`;
export const quoteFromExpressions = {
	resource: 'quote',
	operation: 'create',
	...Object.fromEntries(ROUTE_FIELDS.map((field) => [field, fieldExpression(field)])),
	orderMode: 'SINGLE',
};

/** The same node with Options › Dry Run on: each item's request is output, nothing is sent. */
export const quoteDryRun = { ...quoteFromExpressions, options: { dryRun: true } };

/** The expression-free mode: the API's field names read straight off the incoming item. */
export const quoteFromInputFields = {
	resource: 'quote',
	operation: 'create',
	routeSource: 'inputFields',
};

/** The same POST from n8n's HTTP Request node: JSON body from one expression, key by header auth. */
function httpRequestParameters(sandbox: SandboxInfo) {
	const body = ROUTE_FIELDS.map((field) => `${field}: $json.${field}`).join(', ');
	return {
		method: 'POST',
		url: `${sandbox.url}/partner-api/booking-quotes`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		sendHeaders: true,
		headerParameters: {
			parameters: [{ name: 'Idempotency-Key', value: '={{ $execution.id }}-{{ $itemIndex }}' }],
		},
		sendBody: true,
		contentType: 'json',
		specifyBody: 'json',
		jsonBody: `={{ JSON.stringify({ ${body} }) }}`,
		options: {},
	};
}

interface NodeUnderTest {
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	/** Node settings, e.g. onError. */
	onError?: string;
}

function workflow(
	spec: BenchWorkflow,
	node: NodeUnderTest,
	credentials: Record<string, { id: string; name: string }>,
): WorkflowFixture {
	const connect = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id: spec.id,
		name: `Bench: ${spec.path}`,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${spec.id}-webhook`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${spec.id}-hook`,
				parameters: {
					httpMethod: 'POST',
					path: spec.path,
					responseMode: 'lastNode',
					responseData: spec.answer ?? 'noData',
					options: {},
				},
			},
			{
				id: `${spec.id}-split`,
				name: 'Split Out',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: `body.${spec.itemsField}`, include: 'noOtherFields' },
			},
			{
				id: `${spec.id}-node`,
				name: NODE_UNDER_TEST,
				position: [440, 0],
				...node,
				credentials,
			},
		],
		connections: { Webhook: connect('Split Out'), 'Split Out': connect(NODE_UNDER_TEST) },
	};
}

export function benchWorkflows(sandbox: SandboxInfo): WorkflowFixture[] {
	const partner = { partnerLogisticsApi: CREDENTIALS.partner };
	const ours = (parameters: Record<string, unknown>, onError?: string): NodeUnderTest => ({
		type: PARTNER_NODE,
		typeVersion: 1,
		parameters,
		...(onError ? { onError } : {}),
	});
	return [
		workflow(WORKFLOWS.quoteExpressions, ours(quoteFromExpressions), partner),
		...(inputFieldsMissing()
			? []
			: [workflow(WORKFLOWS.quoteInputFields, ours(quoteFromInputFields), partner)]),
		...(dryRunMissing() ? [] : [workflow(WORKFLOWS.quoteDryRun, ours(quoteDryRun), partner)]),
		workflow(
			WORKFLOWS.transportFloor,
			{ type: 'CUSTOM.benchTransportFloor', typeVersion: 1, parameters: {} },
			partner,
		),
		workflow(
			WORKFLOWS.httpRequest,
			{
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: httpRequestParameters(sandbox),
			},
			{ httpHeaderAuth: CREDENTIALS.header },
		),
		workflow(WORKFLOWS.bookingPay, ours(bookingPay(sandbox, {}), 'continueRegularOutput'), partner),
		// Two queue-mode workers sharing a 50/s key, each told to keep to half.
		workflow(
			WORKFLOWS.bookingPayHalfRate,
			ours(bookingPay(sandbox, { maxRequestsPerSecond: 25 }), 'continueRegularOutput'),
			partner,
		),
		workflow(
			WORKFLOWS.bookingSingle,
			ours({
				resource: 'booking',
				operation: 'create',
				quoteId: '={{ $json.quoteId }}',
				routeSource: 'inputFields',
			}),
			partner,
		),
	];
}

/** Booking › Pay of the incoming booking ids with the saved card; failed items are output as errors. */
function bookingPay(sandbox: SandboxInfo, options: Record<string, number>) {
	return {
		resource: 'booking',
		operation: 'pay',
		bookingId: '={{ $json.bookingId }}',
		paymentMethodId: sandbox.savedCards.enabled,
		// A partner API is 20 to 200 ms away: at 100 ms each way, 20 in flight send at most 100 a
		// second, below a 200/s limit. 50 keep the limit, not the round trip, in charge.
		options: { concurrency: 50, ...options },
	};
}

/** Our credential, and the same key as n8n's Header Auth credential for the HTTP Request node. */
export function benchCredentials(sandbox: SandboxInfo): CredentialFixture[] {
	const partner: CredentialFixture = {
		...CREDENTIALS.partner,
		type: 'partnerLogisticsApi',
		data: {
			baseUrl: sandbox.url,
			apiKey: sandbox.keys.full,
			webhookSigningSecret: '',
			previousWebhookSigningSecret: '',
		},
	};
	// The stack's fixture type names our credential type only; n8n imports any type by its name.
	const header = {
		...CREDENTIALS.header,
		type: 'httpHeaderAuth',
		data: { name: 'X-SVC-API-Key', value: sandbox.keys.full },
	} as unknown as CredentialFixture;
	return [partner, header];
}
