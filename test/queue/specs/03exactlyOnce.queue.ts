import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { expectSucceeded } from '../../e2e/lib/assertions';
import { type Execution, nodeOutput } from '../../e2e/lib/n8nApi';
import { e2eWorkDir } from '../../e2e/lib/paths';
import { PG_BIN } from '../../e2e/lib/services';
import {
	EVENT_SETUPS,
	type EventSetup,
	eventUrl,
	EVENTS_DATABASE,
	loadQueueSuite,
	QUEUE_WORKFLOWS,
} from '../setup/context';
import { settledExecutions } from '../setup/executions';

// Every event delivered to webhook process A and to process B (a sender retrying through a load
// balancer), 20 distinct events per case. What reaches "Handle the event" once per event id?
const suite = loadQueueSuite();
const [webhookA, webhookB] = suite.webhookProcesses;
const EVENTS = 20;
const DOWNSTREAM = 'Handle the event';

type Pattern = 'sequential' | 'simultaneous';
interface Measured {
	deliveries: number;
	/** Deliveries the trigger acknowledged as duplicates without starting an execution. */
	ignoredByTrigger: number;
	executions: number;
	/** Runs of "Handle the event" per event id. */
	downstream: Record<string, number>;
	statuses: Record<string, number>;
	executionList: Execution[];
}

/** Sends EVENTS events, each to A and to B: A then B, or both at the same moment. */
async function deliver(
	setup: EventSetup,
	pattern: Pattern,
): Promise<{ ids: string[]; answered: number[]; ignored: number }> {
	const ids: string[] = [];
	const answered: number[] = [];
	let ignored = 0;
	for (let i = 0; i < EVENTS; i++) {
		const id = `msg_${setup}_${pattern}_${i}_${randomBytes(4).toString('hex')}`;
		// Same id, timestamp and body: the sandbox signs both deliveries identically, as a retry would.
		const timestamp = Math.floor(Date.now() / 1000);
		const send = (base: string) =>
			suite.admin.sendWebhook({
				url: eventUrl(base, setup),
				secret: suite.signingSecret,
				type: 'booking.created',
				data: { bookingId: `bk_${i}` },
				id,
				timestamp,
			});
		const results =
			pattern === 'sequential'
				? [await send(webhookA), await send(webhookB)]
				: await Promise.all([send(webhookA), send(webhookB)]);
		answered.push(...results.map((result) => result.status));
		// The trigger acknowledges a delivery it recognises as a duplicate without starting anything.
		ignored += results.filter((result) => isIgnored(result.body)).length;
		ids.push(id);
	}
	return { ids, answered, ignored };
}

async function measure(setup: EventSetup, pattern: Pattern): Promise<Measured> {
	const workflowId = EVENT_SETUPS[setup].workflowId;
	const before = (await settledExecutions(suite.client, workflowId, 0)).length;
	progress(`${setup} ${pattern}: ${before} executions before; delivering…`);
	const { ids, answered, ignored } = await deliver(setup, pattern);
	progress(`${setup} ${pattern}: delivered (${ignored} ignored by the trigger); waiting…`);
	// Every delivery was accepted; each one not recognised as a duplicate started an execution.
	expect(answered).toEqual(Array(2 * EVENTS).fill(200));
	const all = await settledExecutions(suite.client, workflowId, before + 2 * EVENTS - ignored);
	const mine = all.filter((execution) => ids.includes(eventIdOf(execution) ?? ''));
	const downstream = Object.fromEntries(ids.map((id) => [id, 0]));
	const statuses: Record<string, number> = {};
	for (const execution of mine) {
		statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		const id = eventIdOf(execution) as string;
		if (
			execution.data?.resultData.runData[DOWNSTREAM] &&
			nodeOutput(execution, DOWNSTREAM).length
		) {
			downstream[id] += 1;
		}
	}
	expect(mine).toHaveLength(2 * EVENTS - ignored);
	return {
		deliveries: answered.length,
		ignoredByTrigger: ignored,
		executions: mine.length,
		downstream,
		statuses,
		executionList: mine,
	};
}

// Straight to the terminal: jest shows console output only once a spec file is done.
const progress = (line: string) => process.stderr.write(`queue: ${line}\n`);

const isIgnored = (body: unknown) => typeof body === 'object' && body !== null && 'ignored' in body;

/** The event id the trigger output; undefined for the recipe's manual create-table run. */
function eventIdOf(execution: Execution): string | undefined {
	if (!execution.data?.resultData.runData['Partner Logistics Trigger']) return undefined;
	return String(nodeOutput(execution, 'Partner Logistics Trigger')[0]?.id);
}

const figures: Record<string, Record<string, unknown>> = {};
function record(setup: EventSetup, pattern: Pattern, measured: Measured) {
	const runs = Object.values(measured.downstream);
	const total = runs.reduce((sum, n) => sum + n, 0);
	figures[`${setup} ${pattern}`] = {
		events: EVENTS,
		deliveries: measured.deliveries,
		ignoredByTrigger: measured.ignoredByTrigger,
		executions: measured.executions,
		executionsPerEvent: measured.executions / EVENTS,
		downstreamRuns: total,
		downstreamPerEvent: total / EVENTS,
		duplicatesThrough: total - EVENTS,
		eventsHandledTwice: runs.filter((n) => n > 1).length,
		eventsNeverHandled: runs.filter((n) => n === 0).length,
		statuses: measured.statuses,
	};
}

afterAll(() => {
	mkdirSync(e2eWorkDir, { recursive: true });
	writeFileSync(join(e2eWorkDir, 'queue-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
	console.log(
		`Exactly-once in queue mode (1 worker, 2 webhook processes):\n${JSON.stringify(figures, null, 2)}`,
	);
});

describe.each<Pattern>(['sequential', 'simultaneous'])(
	'each event delivered to A and B, %s',
	(pattern) => {
		it('plain trigger: every delivery runs (each process remembers only its own deliveries)', async () => {
			const measured = await measure('plain', pattern);
			record('plain', pattern, measured);
			expect(measured.statuses).toEqual({ success: measured.executions });
			// Measured figure: no event is lost; that the second process runs it too is the gap the
			// recipe closes (each webhook process has its own memory).
			expect(Object.values(measured.downstream).every((n) => n >= 1 && n <= 2)).toBe(true);
		});

		it("n8n's Remove Duplicates: no event lost; duplicates measured", async () => {
			const measured = await measure('removeDuplicates', pattern);
			record('removeDuplicates', pattern, measured);
			expect(Object.values(measured.downstream).every((n) => n >= 1 && n <= 2)).toBe(true);
		});

		it('the Postgres claim recipe: exactly one run of "Handle the event" per event id', async () => {
			const measured = await measure('postgresClaim', pattern);
			record('postgresClaim', pattern, measured);
			expect(measured.statuses).toEqual({ success: measured.executions });
			expect(Object.values(measured.downstream)).toEqual(Array(EVENTS).fill(1));
			// Every other execution of an event took the "Already handled" branch.
			const alreadyHandled = measured.executionList.filter(
				(execution) => execution.data?.resultData.runData['Already handled'],
			);
			expect(alreadyHandled).toHaveLength(measured.executions - EVENTS);
			const ids = Object.keys(measured.downstream);
			const claimed = psql(
				`SELECT count(*) FROM processed_events WHERE id IN (${ids.map((id) => `'${id}'`).join(',')})`,
			);
			expect(claimed).toBe(String(EVENTS));
		});
	},
);

beforeAll(async () => {
	// The recipe's one-off branch, as a user runs it from the editor: creates the claims table.
	const execution = await suite.client.runManually(QUEUE_WORKFLOWS.eventsRecipe);
	expectSucceeded(execution);
	expect(psql("SELECT to_regclass('processed_events') IS NOT NULL")).toBe('t');
});

function psql(statement: string): string {
	return execFileSync(join(PG_BIN, 'psql'), [
		...['-h', '127.0.0.1', '-p', String(suite.postgres.port), '-U', suite.postgres.user],
		...['-d', EVENTS_DATABASE, '-At', '-c', statement],
	])
		.toString()
		.trim();
}
