import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { WorkflowFixture } from './fixtures';
import { nodeOutput, type Execution } from './n8nApi';
import { workflowsDir } from './paths';
import type { OrgState } from './sandbox';

// n8n killed mid-batch, then Executions › Retry (crash-retry.e2e.ts): the batches, what each
// creates at the sandbox, and how a record is traced back to the row it was made for, so that
// duplicates (two records for one row) and missing rows are counted from the sandbox's own state.

/** The crash workflows: test fixtures, not samples, so the suite and the playground skip them. */
export const crashWorkflowsDir = join(workflowsDir, 'crash');

type SandboxRecord = Record<string, unknown>;

/** Records of one kind a batch makes, e.g. the support cases. */
export interface RecordKind {
	/** Plural, as the figures name them: `support cases`. */
	name: string;
	/** The node that makes them. */
	node: string;
	/** The field holding a record's ID, in the sandbox's state and in the node's output. */
	idField: string;
	/** Where the sandbox's state holds them. */
	collection: keyof OrgState;
	/** What a record was made for: the row's reference, or the record one step before it. */
	madeFor(record: SandboxRecord): unknown;
}

export interface CrashBatch {
	/** As the test titles say it: `100 support cases`. */
	title: string;
	workflowId: string;
	/** Rows in the batch. */
	size: number;
	/** Every kind the batch makes, in the workflow's order. */
	kinds: RecordKind[];
	/** The kind whose count says how far the batch got: the kill is aimed at half of it. */
	progress: RecordKind;
}

const recordKind = (
	name: string,
	node: string,
	idField: string,
	collection: keyof OrgState,
	madeFor: RecordKind['madeFor'],
): RecordKind => ({ name, node, idField, collection, madeFor });

/** A creation batch: 100 rows, one record each. */
const creation = (title: string, workflowId: string, made: RecordKind): CrashBatch => ({
	title,
	workflowId,
	size: 100,
	kinds: [made],
	progress: made,
});

const field = (record: SandboxRecord, object: string, name: string) =>
	(record[object] as SandboxRecord)[name];

const bookings = recordKind(
	'bookings',
	'Book each quote',
	'bookingId',
	'bookings',
	(r) => r.quoteId,
);

/** The orders batch goes first: it is aimed at its bookings, after 200 quotes. */
export const ORDERS: CrashBatch = {
	title: '200 orders quoted, booked and paid',
	workflowId: 'plWfCrashOrders1',
	size: 200,
	kinds: [
		recordKind('quotes', 'Quote each order', 'quoteId', 'quotes', (r) =>
			field(r, 'options', 'externalReference'),
		),
		bookings,
		// The only payments in this sandbox are the bookings'.
		recordKind('payments', 'Pay each booking', 'reference', 'payments', (r) => r.resourceId),
	],
	progress: bookings,
};

/** The creations, whose key used to be made of the execution. */
export const CREATIONS: CrashBatch[] = [
	creation(
		'100 support cases',
		'plWfCrashCases01',
		recordKind(
			'support cases',
			'Open a support case',
			'caseId',
			'supportCases',
			(r) => /^Parcel (\S+) not delivered$/.exec(String(r.title))?.[1],
		),
	),
	creation(
		'100 GO_BULK quote requests',
		'plWfCrashQReqs01',
		recordKind(
			'quote requests',
			'Request a GO_BULK quotation',
			'quoteRequestId',
			'quoteRequests',
			(r) => String(field(r, 'request', 'itemDescription')).split(':')[0],
		),
	),
	creation(
		'100 haulage quotations',
		'plWfCrashHaul001',
		recordKind(
			'haulage quotations',
			'Request a HAUL quotation',
			'quotationId',
			'haulageQuotations',
			(r) => field(r, 'details', 'reference'),
		),
	),
];

const recordsOf = (made: RecordKind, state: OrgState) => state[made.collection];

/** How far a batch got: its progress kind's records in the sandbox. */
export const progressOf = (batch: CrashBatch, state: OrgState) =>
	recordsOf(batch.progress, state).length;

/** One kind's count in the sandbox: records, rows they were made for, and the surplus. */
export interface KindCount {
	records: number;
	distinct: number;
	duplicates: number;
}

export function countKind(kind: RecordKind, state: OrgState): KindCount {
	const records = recordsOf(kind, state);
	const distinct = new Set(records.map(kind.madeFor)).size;
	return { records: records.length, distinct, duplicates: records.length - distinct };
}

/**
 * What a kind's node output in an execution: how many items, and for how many rows they name a
 * record the sandbox holds.
 */
export function rowsDone(kind: RecordKind, execution: Execution, state: OrgState) {
	const rowOf = new Map(recordsOf(kind, state).map((record) => [record[kind.idField], record]));
	const ids = nodeOutput(execution, kind.node).map((item) => item[kind.idField]);
	const rows = ids.filter((id) => rowOf.has(id)).map((id) => kind.madeFor(rowOf.get(id)!));
	return { items: ids.length, rows: new Set(rows).size };
}

/**
 * A crash workflow started by a production webhook instead of its Manual Trigger (queue mode runs
 * production executions on a worker): a Webhook node at `path`, answering as soon as it is called.
 */
export function startedByWebhook(workflow: WorkflowFixture, path: string): WorkflowFixture {
	const copy = structuredClone(workflow);
	const trigger = copy.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`Workflow ${workflow.id} has no Manual Trigger`);
	const name = 'Batch requested';
	copy.connections[name] = copy.connections[trigger.name];
	delete copy.connections[trigger.name];
	Object.assign(trigger, {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	});
	return copy;
}
