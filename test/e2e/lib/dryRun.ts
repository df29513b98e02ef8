import { lastSeq, type LoggedRequest, sandboxRequests } from './assertions';
import { dryRunWebhookUrl, DRY_RUN_WEBHOOK, loadWorkflows, WORKFLOW_IDS } from './fixtures';
import { waitFor } from './http';
import { refuseOneBooking } from './executionRetry';
import { type Execution, type N8nClient } from './n8nApi';
import type { SandboxAdmin, SandboxInfo } from './sandbox';

// The Dry Run sample (workflows/22-dry-run-batch.json): a batch `{ dryRun, step, rows }`, from
// Execute workflow (its Sample batch) or posted to its webhook, split into rows and sent to the
// Partner Logistics node `step` names, whose Options › Dry Run is on unless `dryRun` is false.
// What a dryRun.e2e.ts test needs of it: posting a batch, and a preview and a logged request
// put side by side.

/** The nodes of the `chain` step, in order: each row quoted, its quote booked, the booking paid. */
export const CHAIN_NODES = { quote: 'Quote', book: 'Book', pay: 'Pay' } as const;
/** The node each `step` of a batch goes to (the chain's first). */
export const STEP_NODES = {
	chain: CHAIN_NODES.quote,
	quote: 'Quote each row',
	quoteByExpressions: 'Quote each row by expressions',
	book: 'Book each quote',
	pay: 'Pay each booking',
} as const;
export type Step = keyof typeof STEP_NODES;
/** Where both quote nodes put the rows that fail (On Error: Continue (using error output)). */
export const ROWS_TO_FIX = 'Rows to fix';

export type Row = Record<string, unknown>;
export interface Batch {
	dryRun: boolean;
	step: Step;
	rows: Row[];
}

/**
 * A dry run's item: the request the row would send (`request` is "POST <url>"), a note that nothing
 * was sent, then the stand-ins for the ids the answer would carry (a quote's `quoteId`, …).
 */
export interface Preview {
	request: string;
	body?: Record<string, unknown>;
	idempotencyKey?: string;
	dryRun: string;
	headers: Record<string, string>;
	[standIn: string]: unknown;
}

/** The method and URL of a preview's `request`. */
export function requestLine(preview: Preview): { method: string; url: string } {
	const space = preview.request.indexOf(' ');
	return { method: preview.request.slice(0, space), url: preview.request.slice(space + 1) };
}

/** The sample batch the workflow previews on Execute workflow, as the fixture holds it. */
export function sampleBatch(sandbox: Pick<SandboxInfo, 'origin' | 'adminToken'>): Batch {
	const workflow = loadWorkflows(sandbox).find((each) => each.id === WORKFLOW_IDS.dryRunBatch);
	const node = workflow?.nodes.find((each) => each.name === 'Sample batch');
	if (!node) throw new Error('the Dry Run sample has no "Sample batch" node');
	return JSON.parse(node.parameters.jsonOutput as string) as Batch;
}

/**
 * `count` CLICK orders in Lagos, each a different route, under the API's field names (a sheet or
 * CSV of orders): what Route: Map From Input Fields reads and the expressions map.
 */
export function orderRows(count: number, prefix: string): Row[] {
	const at = (base: number, step: number) => Number((base + step * 0.0001).toFixed(6));
	return Array.from({ length: count }, (_, i) => ({
		externalReference: `${prefix}-${String(i + 1).padStart(4, '0')}`,
		serviceType: 'CLICK',
		pickupAddress: `${i + 1} Allen Avenue, Ikeja, Lagos`,
		pickupLatitude: at(6.6018, i % 100),
		pickupLongitude: at(3.3515, Math.floor(i / 100)),
		dropoffAddress: `${i + 1} Admiralty Way, Lekki, Lagos`,
		dropoffLatitude: at(6.4474, -(i % 50)),
		dropoffLongitude: at(3.4733, i % 20),
	}));
}

/** The workflow's latest executions, newest first, without their data. */
async function latestExecutionIds(client: N8nClient): Promise<string[]> {
	const query = new URLSearchParams({ workflowId: DRY_RUN_WEBHOOK.workflowId, limit: '10' });
	const response = await client.publicApi<{ data: Array<{ id: string }> }>(
		'GET',
		`/executions?${query}`,
	);
	if (response.status !== 200) throw new Error(`list executions: HTTP ${response.status}`);
	return response.body.data.map((execution) => execution.id);
}

export interface BatchRun {
	execution: Execution;
	/** Every partner request the sandbox received while the batch ran. */
	requests: LoggedRequest[];
}

/**
 * POSTs a batch to the sample's production webhook, as a sheet export or another system would,
 * and returns the execution it started, with the requests the sandbox received meanwhile. The
 * webhook answers once the execution has ended (500 when it failed); n8n's public API lists an
 * execution only once it has ended, so the new one is then the newest.
 */
export async function postBatch(
	suite: { client: N8nClient; admin: SandboxAdmin; n8nBaseUrl: string },
	batch: Batch,
): Promise<BatchRun> {
	const since = await lastSeq(suite.admin);
	const before = new Set(await latestExecutionIds(suite.client));
	const response = await fetch(dryRunWebhookUrl(suite.n8nBaseUrl), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(batch),
		signal: AbortSignal.timeout(300_000),
	});
	const answer = await response.text();
	if (response.status === 404) throw new Error(`POST the batch: HTTP 404 ${answer}`);
	const id = await waitFor(
		`the execution the batch started (the webhook answered ${response.status})`,
		async () => (await latestExecutionIds(suite.client)).find((each) => !before.has(each)),
		{ timeoutMs: 60_000, intervalMs: 200 },
	);
	const execution = await suite.client.waitForExecution(id, 60_000);
	return { execution, requests: await sandboxRequests(suite.admin, since) };
}

/** A booking payment's path. */
export const PAYMENTS = /^\/partner-api\/bookings\/[^/]+\/payment$/;

/**
 * For the describe it is called in: an API that books or pays again under any new key and keeps a
 * refusal for its key (as Stripe does), so anything sent twice under two keys is done twice; the
 * shared sandbox's settings are put back afterwards. Call it before the describe's own beforeAll.
 */
export function strictApiWhileRunning(admin: SandboxAdmin): void {
	let before: { repeatActions: boolean; replayRefusals: boolean };
	beforeAll(async () => {
		({ settings: before } = await admin.get<{ settings: typeof before }>('/state'));
		await admin.setRepeatActions(true);
		await admin.setReplayRefusals(true);
	});
	afterAll(async () => {
		await admin.setFaults({});
		await admin.setRepeatActions(before.repeatActions);
		await admin.setReplayRefusals(before.replayRefusals);
	});
}

/** A run during which the API refuses the next booking (400), its fault plan cleared afterwards. */
export async function refusingOneBooking(
	admin: SandboxAdmin,
	start: () => Promise<BatchRun>,
): Promise<BatchRun> {
	await admin.setFaults(refuseOneBooking);
	try {
		return await start();
	} finally {
		await admin.setFaults({});
	}
}

/** n8n's Executions › Retry of `id` (REST), with the requests the sandbox received meanwhile. */
export async function retried(
	suite: { client: N8nClient; admin: SandboxAdmin },
	id: string,
): Promise<BatchRun> {
	const since = await lastSeq(suite.admin);
	const execution = await suite.client.retryExecution(id, false);
	return { execution, requests: await sandboxRequests(suite.admin, since) };
}

/** What leaves n8n, from a preview: the part a real run must send identically. */
export interface Wire {
	method: string;
	url: string;
	/** The exact bytes of the JSON body (the node sends JSON.stringify(body)). */
	body?: string;
	contentLength?: string;
	idempotencyKey?: string;
}

export function wireOfPreview(preview: Preview, withKey: boolean): Wire {
	const body = preview.body === undefined ? undefined : JSON.stringify(preview.body);
	return {
		...requestLine(preview),
		body,
		contentLength: body === undefined ? undefined : String(Buffer.byteLength(body)),
		...(withKey ? { idempotencyKey: preview.headers['Idempotency-Key'] } : {}),
	};
}

/**
 * What reached the sandbox, in the same terms. The sandbox logs the JSON it parsed; serialized
 * again it gives back the bytes received, which the request's Content-Length confirms.
 */
export function wireOfRequest(
	request: LoggedRequest,
	sandbox: SandboxInfo,
	withKey: boolean,
): Wire {
	const query = new URLSearchParams(
		(request as LoggedRequest & { query?: Record<string, string> }).query ?? {},
	).toString();
	const body = request.body === undefined ? undefined : JSON.stringify(request.body);
	return {
		method: request.method,
		url: `${sandbox.url}${request.path}${query ? `?${query}` : ''}`,
		body,
		contentLength: body === undefined ? undefined : request.headers['content-length'],
		...(withKey ? { idempotencyKey: request.headers['idempotency-key'] } : {}),
	};
}

/** Wires in one order whatever order they were sent in (items are sent concurrently). */
export const sortedWires = (wires: Wire[]) =>
	wires.map((wire) => JSON.stringify(wire)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** n8n's own time for a node's first run in an execution (runData executionTime), in ms. */
export function nodeTime(execution: Execution, node: string): number {
	const run = execution.data?.resultData.runData[node]?.[0] as { executionTime?: number };
	if (run?.executionTime === undefined) {
		throw new Error(`Node "${node}" has no executionTime in execution ${execution.id}`);
	}
	return run.executionTime;
}
