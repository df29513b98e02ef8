import { Worker } from 'node:worker_threads';

import { startSandbox, type RequestLogEntry, type Sandbox } from '../sandbox';
import { runNode } from '../harness';
import { clickRoute, credentialsFor, runAgainst } from './helpers';

// Pacing through n8n's engine against the sandbox over HTTP. What the node learns of an API key's
// limit lives in the process, per API and API key, shared by every run: each describe below
// starts its own sandbox (its own Base URL), so it begins with nothing learned.
//
// The machine may be busy (CI runs suites side by side): timers fire late and answers come back
// late, never early. So no assertion here bounds how soon something happens; each bounds what
// cannot happen however slow the machine is, e.g. a request sent before the answer it must wait
// for, which the sandbox holds at least `delayMs`. To show it, the file always runs beside two
// CPU-bound threads (TEST_CPU_LOAD sets how many; 0 for none).

const cpuLoad = Number(process.env.TEST_CPU_LOAD ?? 2);
let busy: Worker[] = [];
beforeAll(() => {
	const spin = 'for (;;) {}';
	busy = Array.from({ length: cpuLoad }, () => new Worker(spin, { eval: true }));
});
afterAll(async () => await Promise.all(busy.map((worker) => worker.terminate())));

const quoteParameters = { resource: 'quote', operation: 'create', ...clickRoute };
const items = (count: number) => Array.from({ length: count }, () => ({}));

/** A sandbox for the describe it is called in, reset after each test. */
function sandboxPerDescribe(): () => Sandbox {
	let sandbox: Sandbox;
	beforeAll(async () => (sandbox = await startSandbox()));
	afterAll(async () => await sandbox.close());
	afterEach(() => {
		sandbox.admin.setFaults({});
		sandbox.admin.setRateLimit(null);
	});
	return () => sandbox;
}

/**
 * At each request's arrival, how many had arrived and how many the API had answered: the node
 * cannot have heard of an answer before the API gave it, nor sent a request after it arrived.
 */
function progress(requests: RequestLogEntry[]): Array<{ arrived: number; answered: number }> {
	return requests.map((request) => ({
		arrived: requests.filter((other) => other.at <= request.at).length,
		answered: requests.filter((other) => other.answeredAt <= request.at).length,
	}));
}

describe('a key the API has refused nothing on', () => {
	const sandbox = sandboxPerDescribe();

	test('first contact: never more than 5 beyond what the API answered, up to Concurrency', async () => {
		sandbox().admin.setFaults({ delayMs: 200 });
		const began = Date.now();
		const { error, requests } = await runAgainst(sandbox(), quoteParameters, { input: items(250) });
		expect(error).toBeUndefined();
		const seen = progress(requests);
		// 5 before any answer; in the first window (nothing sent in it has left it yet: each
		// request arrives after it left) each further one waits for one more answer...
		expect(seen.filter(({ answered }) => answered === 0).length).toBe(5);
		const firstWindow = seen.filter((_, i) => requests[i].at < began + 800);
		for (const { arrived, answered } of firstWindow)
			expect(arrived).toBeLessThanOrEqual(answered + 5);
		// ...and later up to Concurrency's default in flight, never more.
		expect(Math.max(...seen.map(({ arrived, answered }) => arrived - answered))).toBe(20);
	});

	test('a later run starts at Concurrency', async () => {
		sandbox().admin.setFaults({ delayMs: 200 });
		const began = Date.now();
		const { error, requests } = await runAgainst(sandbox(), quoteParameters, { input: items(40) });
		expect(error).toBeUndefined();
		// Far more than a key's first 5 went before the API answered any: none waited for one.
		const firstWindow = progress(requests).filter((_, i) => requests[i].at < began + 800);
		expect(Math.max(...firstWindow.map(({ arrived, answered }) => arrived - answered))).toBe(20);
	});

	test('Max Requests per Second spaces the requests', async () => {
		const began = Date.now();
		const { error, requests } = await runAgainst(
			sandbox(),
			{ ...quoteParameters, options: { maxRequestsPerSecond: 20 } },
			{ input: items(11) },
		);
		expect(error).toBeUndefined();
		// 50 ms apart when they leave: the eleventh no sooner than ten intervals after the run began
		// (an arrival may lag its start, never lead it).
		expect(requests[10].at - began).toBeGreaterThanOrEqual(10 * 50);
	});

	test('a cancelled execution sends nothing more', async () => {
		sandbox().clearLog();
		sandbox().admin.setFaults({ delayMs: 100 });
		const result = await runNode(
			{ ...quoteParameters, options: { concurrency: 1 } },
			{ credentials: credentialsFor(sandbox()), input: items(50), cancelAfterMs: 350 },
		);
		const cancelledAt = result.cancelledAt!;
		// Requests are logged when answered: give the one in flight, and any the node would still
		// send, time to show (one a 100 ms hold apart), then look at arrivals.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const arrivals = sandbox()
			.requests()
			.map((request) => request.at);
		expect(arrivals.filter((at) => at < cancelledAt).length).toBeGreaterThan(0);
		// The request sent before the cancel may reach the API after it; none is sent after.
		expect(arrivals.filter((at) => at >= cancelledAt).length).toBeLessThanOrEqual(1);
		expect(arrivals.length).toBeLessThan(50);
		expect(result.run.status).toBe('canceled');
	});
});

describe('a key with a rate limit', () => {
	const sandbox = sandboxPerDescribe();
	const refused = (requests: RequestLogEntry[]) =>
		requests.filter((request) => request.status === 429).length;

	test('first contact: the node slows down to what the API accepts, after few refusals', async () => {
		sandbox().admin.setRateLimit(20);
		const {
			error,
			items: out,
			requests,
		} = await runAgainst(sandbox(), quoteParameters, {
			input: items(60),
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(60);
		// At most 5 refused meeting it: those sent beyond what the API was seen to take before the
		// node heard of the first 429; none at the next window's edge, however late the first
		// requests reached the API on a busy machine (they count until a window after their answer).
		expect(refused(requests)).toBeLessThanOrEqual(5);
	});

	test('a later run starts at the limit learned: nothing refused', async () => {
		sandbox().admin.setRateLimit(20);
		const { error, requests } = await runAgainst(sandbox(), quoteParameters, { input: items(40) });
		expect(error).toBeUndefined();
		expect(refused(requests)).toBe(0);
		expect(requests.at(-1)!.at - requests[0].at).toBeGreaterThanOrEqual(900); // 40 at 20/s
	});

	test('two runs at once share the limit, taking turns', async () => {
		sandbox().admin.setRateLimit(20);
		sandbox().clearLog();
		const run = (pickupAddress: string) =>
			runNode(
				{ ...quoteParameters, pickupAddress },
				{ credentials: credentialsFor(sandbox()), input: items(30) },
			);
		const [one, two] = await Promise.all([run('1 First Run Road'), run('2 Second Run Road')]);
		expect(one.output()).toHaveLength(30);
		expect(two.output()).toHaveLength(30);
		const requests = sandbox().requests();
		expect(refused(requests)).toBeLessThanOrEqual(1); // a probe, at most
		expect(requests.at(-1)!.at - requests[0].at).toBeGreaterThanOrEqual(2000); // 60 at 20/s
		// Both got starts from the beginning: in the first 20 requests, each run has about half.
		const first = requests
			.slice(0, 20)
			.map((request) => (request.body as { pickupAddress: string }).pickupAddress);
		expect(first.filter((address) => address.startsWith('1')).length).toBeGreaterThanOrEqual(8);
		expect(first.filter((address) => address.startsWith('2')).length).toBeGreaterThanOrEqual(8);
	});
});
