import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { lastSeq, type LoggedRequest, sandboxRequests } from '../lib/assertions';
import { ANSWER_BOUNDS_WORKFLOW_IDS, POLLING_TRIGGER } from '../lib/fixtures';
import { sleep, waitFor } from '../lib/http';
import type { Execution } from '../lib/n8nApi';
import { n8nLogFile } from '../lib/n8nEnv';
import { jsonLines } from '../lib/n8nLog';
import { startPollingStack, type PollingStack } from '../lib/polling';
import { emitted, partnerCall, recordWatchWorkflows } from '../lib/watches';
import { loadSuite } from '../lib/suiteContext';

// The polling trigger when one listed ID's answer never ends and another's inflates without end,
// in real n8n with its own scheduler: a GO_BULK quote request watch of three IDs, polling Every
// Minute (n8n's smallest Poll Time) with the default Timeout (30 s). The third ID's change still
// comes in that poll, the poll ends within one Timeout (a poll does not retry a timeout), the next
// Poll Time polls on time, and each unreadable ID is reported once. On an n8n and a sandbox of
// their own (a published watch polls whatever runs beside it). About 2½ minutes: two Poll Times a
// minute apart, the first up to a minute after publishing.
const suite = loadSuite();
const WATCH = ANSWER_BOUNDS_WORKFLOW_IDS.quoteRequestWatch;
/** n8n's Request Options › Timeout when not set, which the watch keeps. */
const TIMEOUT_MS = 30_000;
const MINUTE_MS = 60_000;
const FINAL = ['success', 'error', 'crashed', 'canceled'];

let polling: PollingStack;
/** The quote requests listed: the one whose answer trickles, the bomb's, and the one that changes. */
let trickled: string;
let bomb: string;
let quoted: string;

const log = (line: string) => process.stderr.write(`e2e polling answer bounds: ${line}\n`);

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling-answer-bounds'),
		archiveDir: join(suite.logDir, 'polling-answer-bounds'),
		workflows: async (caseWatch, sandbox) => {
			const created = [];
			for (const quantity of [40, 80, 120]) {
				const request = await partnerCall(sandbox, '/partner-api/quote-requests', {
					itemDescription: 'Cement',
					quantity,
				});
				created.push(request.quoteRequestId as string);
			}
			[trickled, bomb, quoted] = created;
			const [watch] = recordWatchWorkflows(caseWatch, ['quoteRequest']);
			watch.id = WATCH;
			watch.name = 'Watch GO_BULK quote requests every minute';
			const trigger = watch.nodes.find((node) => node.name === POLLING_TRIGGER)!;
			trigger.parameters = {
				...trigger.parameters,
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				quoteRequestIds: created.join(', '),
			};
			return [watch];
		},
		log: (line) => log(line),
	});
}, 240_000);

afterAll(async () => await polling?.stop());

type TimedRequest = LoggedRequest & { at: number; fault?: string; clientClosed?: true };

/** The GETs of one quote request since `since`, in arrival order. */
async function getsOf(id: string, since: number): Promise<TimedRequest[]> {
	const requests = (await sandboxRequests(polling.admin, since)) as TimedRequest[];
	return requests.filter(
		(request) => request.method === 'GET' && request.path === `/partner-api/quote-requests/${id}`,
	);
}

/** The published watch's executions once `count` have ended, newest first. */
async function executions(count: number): Promise<Execution[]> {
	return await waitFor(
		`${count} executions of the quote request watch`,
		async () => {
			const list = (await polling.client.executions(WATCH)).filter((e) => e.mode !== 'manual');
			return list.length >= count && list.every((e) => FINAL.includes(e.status)) ? list : undefined;
		},
		// A Poll Time comes within a minute; the poll then ends within one Timeout.
		{ timeoutMs: MINUTE_MS + TIMEOUT_MS + 30_000, intervalMs: 500 },
	);
}

/** What n8n logged after `offset` bytes of its log file: the JSON lines' messages. */
function loggedSince(offset: number): string[] {
	const file = n8nLogFile(polling.stack.instance);
	const text = readFileSync(file).subarray(offset).toString('utf8');
	return jsonLines(text).map((line) => line.message ?? '');
}
const logSize = () => statSync(n8nLogFile(polling.stack.instance)).size;

/** How many times `text` occurs in `within`. */
const occurrences = (within: string, text: string) => within.split(text).length - 1;
/** How an unreadable ID is named in a warning or a poll's error: "qr_1 (Could not check qr_1: …)". */
const named = (id: string) => `${id} (Could not check quote request ${id}: `;

/** One quote request's answer trickles forever, another's is a 1 GiB gzip bomb, for one poll. */
async function breakTwoAnswers(): Promise<void> {
	await polling.admin.setFaults({
		failNext: [
			{ kind: 'trickle', method: 'GET', path: `/partner-api/quote-requests/${trickled}` },
			{ kind: 'gzipBomb', method: 'GET', path: `/partner-api/quote-requests/${bomb}` },
		],
	});
}

describe('a quote request watch with one answer that never ends and one too large', () => {
	/** Where the poll with a change began: its read of the quoted request. */
	let firstPoll: { read: TimedRequest; execution: Execution };
	let offsetAfterPublishing = 0;

	afterAll(async () => await polling?.admin.setFaults({}));

	it('publishing reads the three quote requests and emits nothing', async () => {
		const since = await lastSeq(polling.admin);
		await polling.client.activateWorkflow(WATCH);
		await waitFor('the first poll to read the three quote requests', async () => {
			const reads = await Promise.all([trickled, bomb, quoted].map((id) => getsOf(id, since)));
			return reads.every((gets) => gets.length > 0) ? true : undefined;
		});
		await sleep(1500);
		expect(await polling.client.executions(WATCH)).toEqual([]);
		offsetAfterPublishing = logSize();
	});

	it("emits the third request's change in the same poll, which ends within one Timeout", async () => {
		const since = await lastSeq(polling.admin);
		await polling.admin.post(`/quote-requests/${quoted}/quotation`, { amount: 185_000 });
		await breakTwoAnswers();
		const [execution] = await executions(1);
		const [read] = await getsOf(quoted, since);
		const [trickleGets, bombGets] = [await getsOf(trickled, since), await getsOf(bomb, since)];
		const pollMs = Date.parse(execution.startedAt) - read.at;
		log(
			`poll with a change: read the API at ${new Date(read.at).toISOString()}, its execution ` +
				`started ${pollMs} ms later (Timeout ${TIMEOUT_MS} ms), status ${execution.status}`,
		);
		firstPoll = { read, execution };

		expect(execution.status).toBe('success');
		expect(emitted(execution)).toEqual([
			expect.objectContaining({ change: 'changed', recordId: quoted }),
		]);
		// Read once each in this poll: the timeout is not retried, the bomb not either.
		expect(trickleGets).toEqual([
			expect.objectContaining({ fault: 'trickle', clientClosed: true }),
		]);
		expect(bombGets).toEqual([expect.objectContaining({ fault: 'gzipBomb' })]);
		expect(pollMs).toBeLessThan(TIMEOUT_MS + 5_000);
	});

	it("names each unread ID once, in n8n's log, with why", async () => {
		const messages = await waitFor("n8n to log the poll's warning", async () => {
			const logged = loggedSince(offsetAfterPublishing);
			return logged.some((message) => message.includes(named(trickled))) ? logged : undefined;
		});
		const all = messages.join('\n');
		const warnings = messages.filter((message) => message.includes('could not be read'));
		log(`n8n's warning: ${warnings.join(' | ')}`);

		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			/^Partner Logistics Polling Trigger "Partner Logistics Polling Trigger": 2 of 3 quote requests could not be read: .* The others' changes were emitted; theirs come with a later poll\.$/,
		);
		expect(occurrences(all, named(trickled))).toBe(1);
		expect(occurrences(all, named(bomb))).toBe(1);
		expect(warnings[0]).toContain(
			`${named(trickled)}The API stopped sending partway: no whole answer within 30 s (timeout).`,
		);
		expect(warnings[0]).toContain(`${named(bomb)}The API's answer grew past the 100 MiB`);
		expect(warnings[0]).not.toContain(named(quoted));
	});

	it("polls again at the next minute; with nothing else changed, the poll's error names each unread ID once", async () => {
		const since = await lastSeq(polling.admin);
		await breakTwoAnswers();
		const [execution] = await executions(2);
		const [read] = await getsOf(quoted, since);
		const readGap = read.at - firstPoll.read.at;
		// When n8n recorded each poll's end: an execution's stop (a poll's error has no start).
		const endGap = Date.parse(execution.stoppedAt!) - Date.parse(firstPoll.execution.stoppedAt!);
		log(
			`the next poll read the API ${readGap} ms after the one before, and its execution ` +
				`stopped ${endGap} ms after that one's (Poll Times: Every Minute)`,
		);

		// The very next Poll Time, not one later: the poll before had ended within its minute.
		expect(Math.round(readGap / MINUTE_MS)).toBe(1);
		expect(Math.round(endGap / MINUTE_MS)).toBe(1);
		expect(execution.status).toBe('error');
		const error = execution.data?.resultData.error;
		expect(error?.message).toMatch(
			new RegExp(`^Could not check quote request (${trickled}|${bomb}): `),
		);
		const description = error?.description ?? '';
		expect(description).toContain(
			'2 of 3 IDs could not be read; nothing is lost, the next poll reads them again. They are ',
		);
		expect(occurrences(description, named(trickled))).toBe(1);
		expect(occurrences(description, named(bomb))).toBe(1);
		expect(description).not.toContain(named(quoted));
		expect(await getsOf(trickled, since)).toHaveLength(1);
		expect(await getsOf(bomb, since)).toHaveLength(1);
	});
});
