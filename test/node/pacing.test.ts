import { startSandbox, type RequestLogEntry, type Sandbox } from '../sandbox';
import { runNode } from '../harness';
import { clickRoute, credentialsFor, runAgainst } from './helpers';

// Pacing through n8n's engine against the sandbox over HTTP. What the node learns of a key's
// limit lives in the process, per API and key, shared by every run: each describe below starts
// its own sandbox (its own Base URL), so it begins with nothing learned.

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

/** How many requests were in flight at each arrival, when the sandbox holds each for `holdMs`. */
function inFlight(requests: RequestLogEntry[], holdMs: number): number[] {
	// Every request that arrived in the hold up to another's arrival is still in flight then; a
	// request that took a freed place arrived at least a hold after the one it replaced.
	return requests.map(
		(request) =>
			requests.filter((other) => other.at <= request.at && request.at - other.at < holdMs).length,
	);
}

describe('a key the API has refused nothing on', () => {
	const sandbox = sandboxPerDescribe();

	test('first contact: 5 at once, then 5 more each round trip the API took them all, up to Concurrency', async () => {
		sandbox().admin.setFaults({ delayMs: 200 });
		const { error, requests } = await runAgainst(sandbox(), quoteParameters, { input: items(250) });
		expect(error).toBeUndefined();
		const start = requests[0].at;
		expect(requests.filter((request) => request.at - start < 150)).toHaveLength(5);
		expect(requests.filter((request) => request.at - start < 350)).toHaveLength(10);
		expect(Math.max(...inFlight(requests, 200))).toBe(20); // Concurrency's default
	});

	test('a later run starts at Concurrency', async () => {
		sandbox().admin.setFaults({ delayMs: 200 });
		const { error, requests } = await runAgainst(sandbox(), quoteParameters, { input: items(40) });
		expect(error).toBeUndefined();
		const start = requests[0].at;
		expect(requests.filter((request) => request.at - start < 150)).toHaveLength(20);
	});

	test('Max Requests per Second spaces the requests', async () => {
		const { error, requests } = await runAgainst(
			sandbox(),
			{ ...quoteParameters, options: { maxRequestsPerSecond: 20 } },
			{ input: items(6) },
		);
		expect(error).toBeUndefined();
		const at = requests.map((request) => request.at);
		// 50 ms apart when they leave; arrivals vary by a few ms on a busy machine.
		expect(at[5] - at[0]).toBeGreaterThanOrEqual(5 * 50 - 25);
	});

	test('a cancelled execution sends nothing more', async () => {
		sandbox().clearLog();
		sandbox().admin.setFaults({ delayMs: 100 });
		const started = Date.now();
		const result = await runNode(
			{ ...quoteParameters, options: { concurrency: 1 } },
			{ credentials: credentialsFor(sandbox()), input: items(50), cancelAfterMs: 350 },
		);
		// Requests are logged when answered: wait for the one in flight, then look at arrivals.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const arrivals = sandbox()
			.requests()
			.map((request) => request.at - started);
		expect(arrivals.length).toBeGreaterThan(0);
		expect(arrivals.length).toBeLessThan(10);
		expect(Math.max(...arrivals)).toBeLessThan(350 + 50);
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
		// At most 5 beyond what the API was seen to take: those in flight when the quota ran out.
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
