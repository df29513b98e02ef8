import { expectSucceeded, lastSeq, type LoggedRequest, sandboxRequests } from '../lib/assertions';
import { ANSWER_BOUNDS_WORKFLOW_IDS as IDS, CREDENTIAL_IDS, credentialName } from '../lib/fixtures';
import { type Execution, nodeOutput, nodePairedItems } from '../lib/n8nApi';
import { n8nBin, node24 } from '../lib/paths';
import { commandLine, listeningPid, megabytes, sampleRss } from '../lib/rss';
import { loadSuite } from '../lib/suiteContext';

// Every request ends, whatever the API does, in real n8n: an answer whose body trickles forever
// ends at n8n's Timeout (in a workflow, in the hub picker, in the credential test), a gzip bomb
// ends at the 100 MiB an answer may hold without taking n8n's memory with it, a 50 MB list still
// comes whole, and a list's Limit from an expression is checked before anything is sent.
const suite = loadSuite();

const QUOTES = '/partner-api/booking-quotes';
const HUBS = '/partner-api/hubs';
const CASES = '/partner-api/support-cases';

/** Settings › Request Options › Timeout and Options › Connection Retries of workflow 24. */
const TIMEOUT_MS = 2000;
const CONNECTION_RETRIES = 1;
/** The first connection retry waits 500 ms plus up to 250 ms of jitter (pipeline/request/retry.ts). */
const FIRST_BACKOFF_MAX_MS = 750;
/** How long the hub picker and the credential test wait for an answer (pipeline/request/settings.ts). */
const EDITOR_TIMEOUT_MS = 15_000;
/**
 * n8n's own work around the requests (loading the credential, building the error, answering the
 * editor): a margin on the bounds above, which the issue states for the requests themselves.
 */
const N8N_MARGIN_MS = 1000;

/** A partner request the sandbox logged, with what an answer written over time records. */
type StreamedRequest = LoggedRequest & {
	at: number;
	query: Record<string, string>;
	fault?: string;
	clientClosed?: true;
	bytesSent?: number;
};

async function requestsSince(since: number, path: string): Promise<StreamedRequest[]> {
	return (await sandboxRequests(suite.admin, since)).filter(
		(request) => request.path === path,
	) as StreamedRequest[];
}

/** The first run of `node` in an execution: when it started and how long it took (ms). */
function nodeRun(execution: Execution, node: string): { startTime: number; executionTime: number } {
	const run = execution.data?.resultData.runData[node]?.[0] as
		| { startTime?: number; executionTime?: number }
		| undefined;
	if (run?.startTime === undefined || run.executionTime === undefined) {
		throw new Error(`"${node}" did not run in execution ${execution.id}`);
	}
	return { startTime: run.startTime, executionTime: run.executionTime };
}

const log = (line: string) => process.stderr.write(`e2e answer bounds: ${line}\n`);

/** The answer that trickles forever: headers at once, then a byte of the body every 250 ms. */
const trickle = (method: string, path: string, times = 1) => ({
	failNext: [{ kind: 'trickle' as const, intervalMs: 250, method, path, times }],
});

/** The hub picker's search, as the editor sends it when its list opens (listSearch searchHubs). */
async function searchHubs() {
	return await suite.client.restRaw<{ data?: { results: unknown[] }; message?: string }>(
		'POST',
		'/dynamic-node-parameters/resource-locator-results',
		{
			path: 'parameters.dropoffHubId',
			nodeTypeAndVersion: { name: 'n8n-nodes-partner-logistics.partnerLogistics', version: 1 },
			currentNodeParameters: {
				resource: 'quote',
				operation: 'create',
				serviceType: 'GO_LIGHT',
				pickupMethod: 'HOME_PICKUP',
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: { __rl: true, mode: 'list', value: '' },
			},
			methodName: 'searchHubs',
			credentials: {
				partnerLogisticsApi: { id: CREDENTIAL_IDS.full, name: credentialName.full },
			},
			filter: '',
		},
	);
}

/** Runs `call`, returning what it returned and how long it took in ms. */
async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const started = Date.now();
	const result = await call();
	return { result, ms: Date.now() - started };
}

describe("an answer whose body trickles forever ends at n8n's Timeout", () => {
	afterEach(async () => await suite.admin.setFaults({}));

	it('fails the item within Timeout × (Connection Retries + 1) plus backoff, retried once with the same Idempotency-Key', async () => {
		await suite.admin.setFaults(trickle('POST', QUOTES, CONNECTION_RETRIES + 1));
		const since = await lastSeq(suite.admin);
		const execution = await suite.client.runManually(IDS.quoteTimeout2s);
		const posts = await requestsSince(since, QUOTES);
		const { executionTime } = nodeRun(execution, 'Quote a delivery');
		const bound = TIMEOUT_MS * (CONNECTION_RETRIES + 1) + FIRST_BACKOFF_MAX_MS;
		log(
			`trickle, Timeout ${TIMEOUT_MS} ms, ${CONNECTION_RETRIES} retry: the node ran ${executionTime} ms ` +
				`(bound ${bound} ms + ${N8N_MARGIN_MS} ms margin); attempts ${posts.map((post) => post.at - posts[0].at).join(', ')} ms after the first`,
		);

		expect(execution.status).toBe('error');
		const error = execution.data?.resultData.error;
		expect(error?.node?.name).toBe('Quote a delivery');
		expect(error?.message).toBe(
			'The API stopped sending partway: no whole answer within 2 s (timeout) after 1 retry. Running the item again is safe.',
		);
		expect(error?.description).toContain('Connection fault: E_ANSWER_STALLED');

		// Two attempts, the same key, each answered 200 with a body that had started and never ended.
		expect(posts).toHaveLength(CONNECTION_RETRIES + 1);
		expect(new Set(posts.map((post) => post.headers['idempotency-key'])).size).toBe(1);
		for (const post of posts) {
			expect(post).toMatchObject({ status: 200, fault: 'trickle', clientClosed: true });
			expect(post.bytesSent).toBeGreaterThan(0);
		}

		// Each attempt waited its whole Timeout, and nothing after the last one did.
		expect(executionTime).toBeGreaterThanOrEqual(TIMEOUT_MS * (CONNECTION_RETRIES + 1));
		expect(executionTime).toBeLessThanOrEqual(bound + N8N_MARGIN_MS);
	});

	it('the hub picker lists the active hubs (the search the next test stalls)', async () => {
		const { status, body } = await searchHubs();
		expect(status).toBe(200);
		const values = (body.data?.results as Array<{ value: string }>).map((hub) => hub.value);
		expect(values.sort()).toEqual([...suite.sandbox.hubs.active].sort());
	});

	it('the hub picker ends within 15 s, not retried, saying the answer stopped coming', async () => {
		await suite.admin.setFaults(trickle('GET', HUBS));
		const since = await lastSeq(suite.admin);
		const { result, ms } = await timed(searchHubs);
		const gets = await requestsSince(since, HUBS);
		log(
			`trickle, hub picker: answered ${result.status} after ${ms} ms (${EDITOR_TIMEOUT_MS} ms Timeout)`,
		);

		// n8n answers the editor's search with the node's error, as the dropdown shows it.
		expect(result.status).toBe(500);
		expect(result.body.message).toBe(
			'Could not load hubs: The API stopped sending partway: no whole answer within 15 s (timeout). Try again later.',
		);
		expect(gets).toHaveLength(1);
		expect(gets[0]).toMatchObject({ fault: 'trickle', clientClosed: true });
		expect(ms).toBeGreaterThanOrEqual(EDITOR_TIMEOUT_MS);
		expect(ms).toBeLessThanOrEqual(EDITOR_TIMEOUT_MS + N8N_MARGIN_MS);
	});

	it('the credential test ends within 15 s, saying the answer stopped coming', async () => {
		await suite.admin.setFaults(trickle('GET', HUBS));
		const since = await lastSeq(suite.admin);
		const { result, ms } = await timed(() =>
			suite.client.testStoredCredential(CREDENTIAL_IDS.full),
		);
		const gets = await requestsSince(since, HUBS);
		log(`trickle, credential test: answered after ${ms} ms (${EDITOR_TIMEOUT_MS} ms Timeout)`);

		expect(result).toEqual({
			status: 'Error',
			message:
				'The API stopped sending partway: no whole answer within 15 s (timeout) (E_ANSWER_STALLED). Try the test again; if it keeps failing, check the Base URL.',
		});
		expect(gets).toHaveLength(1);
		expect(gets[0]).toMatchObject({ fault: 'trickle', clientClosed: true });
		expect(ms).toBeGreaterThanOrEqual(EDITOR_TIMEOUT_MS);
		expect(ms).toBeLessThanOrEqual(EDITOR_TIMEOUT_MS + N8N_MARGIN_MS);
	});
});

describe('an answer too large, and a large one that is not', () => {
	const LIST = 'List every case';
	afterEach(async () => await suite.admin.setFaults({}));

	it('a 1 GiB gzip bomb ends within 10 s with the size message, n8n growing by less than 300 MB', async () => {
		const pid = listeningPid(Number(new URL(suite.n8nBaseUrl).port));
		// n8n itself (Node 24 running n8n's bin), not the guard above it.
		expect(commandLine(pid).slice(0, 3)).toEqual([node24, n8nBin, 'start']);
		await suite.admin.setFaults({ failNext: [{ kind: 'gzipBomb', method: 'GET', path: CASES }] });
		const since = await lastSeq(suite.admin);
		const { result: execution, rss } = await sampleRss(pid, () =>
			suite.client.runManually(IDS.listEveryCase),
		);
		const gets = await requestsSince(since, CASES);
		const duration = Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt);
		const growth = rss.peak - rss.before;
		const message = execution.data?.resultData.error?.description ?? '';
		log(
			`gzip bomb: ${/^More than [\d,]+ bytes/.exec(message)?.[0] ?? message} read before it stopped`,
		);
		log(
			`gzip bomb (1 GiB inflated): n8n main (pid ${pid}) RSS before ${megabytes(rss.before)}, ` +
				`peak ${megabytes(rss.peak)}, growth ${megabytes(growth)} (${rss.samples} samples, every 100 ms); ` +
				`execution ${duration} ms, node ${nodeRun(execution, LIST).executionTime} ms`,
		);

		expect(execution.status).toBe('error');
		const error = execution.data?.resultData.error;
		expect(error?.node?.name).toBe(LIST);
		expect(error?.message).toMatch(
			/^The API's answer grew past the 100 MiB an answer may hold; the node stopped reading\. Check the credential's Base URL\.$/,
		);
		const bytes = Number(
			/^More than ([\d,]+) bytes/.exec(error!.description!)![1].replaceAll(',', ''),
		);
		expect(bytes).toBeGreaterThan(100 * 1024 * 1024);
		expect(bytes).toBeLessThan(1024 * 1024 * 1024);
		expect(error?.description).toContain('Connection fault: E_ANSWER_TOO_LARGE');
		// Not retried: trying again would inflate it again.
		expect(gets).toHaveLength(1);
		expect(gets[0]).toMatchObject({ status: 200, fault: 'gzipBomb' });
		expect(duration).toBeLessThan(10_000);
		expect(growth).toBeLessThanOrEqual(300e6);
	});

	it.each([
		['as it is', false],
		['gzip-compressed', true],
	])('a 50 MB list of 50,000 cases, %s, gives its 50,000 items', async (_, gzip) => {
		await suite.admin.setFaults({
			failNext: [{ kind: 'bigList', records: 50_000, gzip, method: 'GET', path: CASES }],
		});
		const since = await lastSeq(suite.admin);
		const execution = await suite.client.runManually(IDS.listEveryCase, 120_000);
		const gets = await requestsSince(since, CASES);
		log(
			`bigList ${gzip ? 'gzip' : 'plain'}: ${gets[0]?.bytesSent} body bytes sent, ` +
				`node ${nodeRun(execution, LIST).executionTime} ms`,
		);

		expectSucceeded(execution);
		const cases = nodeOutput(execution, LIST);
		expect(cases).toHaveLength(50_000);
		expect(cases[0].caseId).toBe('case_big_0000001');
		expect(cases[49_999].caseId).toBe('case_big_0050000');
		expect(gets).toHaveLength(1);
		expect(gets[0]).toMatchObject({ status: 200, fault: 'bigList' });
		expect(gets[0].clientClosed).toBeUndefined();
		if (!gzip) expect(gets[0].bytesSent).toBeGreaterThan(50e6);
	});
});

describe('Support Case › Get Many: Limit from an expression', () => {
	const NODE = 'List cases';
	let execution: Execution;
	let gets: StreamedRequest[];

	beforeAll(async () => {
		const since = await lastSeq(suite.admin);
		execution = await suite.client.runManually(IDS.listLimits);
		gets = await requestsSince(since, CASES);
	});

	it('puts every row on the error output, paired with its input; none on the cases output', () => {
		expectSucceeded(execution);
		expect(nodeOutput(execution, NODE)).toEqual([]);
		expect(nodePairedItems(execution, NODE, 1)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
	});

	it('refuses -1, 0, abc and 10&x=1 naming the item and the field, sending nothing for them', () => {
		const errors = nodeOutput(execution, NODE, 1).map((item) => item.error);
		const rule = 'Limit (limit) must be a whole number of at least 1, got';
		expect([errors[0], errors[1], errors[2], errors[4]]).toEqual([
			`Item 1: ${rule} -1`,
			`Item 2: ${rule} 0`,
			`Item 3: ${rule} "abc"`,
			`Item 5: ${rule} "10&x=1"`,
		]);
		// One request for five rows: 1e9's.
		expect(gets.map((get) => get.query)).toEqual([{ limit: '1000000000' }]);
	});

	it('sends 1e9 as limit=1000000000 and shows the API answer', () => {
		const error = nodeOutput(execution, NODE, 1)[3].error;
		expect(error).toBe(
			'The API refused the request as invalid (400): limit must be a whole number from 1 to 100; got "10000000… [field: limit].',
		);
		expect(gets[0]).toMatchObject({ method: 'GET', status: 400 });
	});
});
