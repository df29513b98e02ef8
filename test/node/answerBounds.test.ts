import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type RequestLogEntry, type Sandbox } from '../sandbox';
import { listSearch, runNode, testCredential } from '../harness';
import { clickRoute, credentialsFor, runAgainst } from './helpers';

// Every request ends, whatever the API does: n8n's Timeout covers the whole answer (status,
// headers and body), and an answer may hold at most 100 MiB once decompressed. Run through
// n8n-core's engine against the sandbox answering as a hostile API would.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.admin.setFaults({}));

const QUOTES = '/partner-api/booking-quotes';
const quote = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'quote',
	operation: 'create',
	...clickRoute,
	requestOptions: { timeout: 1000 },
	options,
});
const keyOf = (request: RequestLogEntry) => request.headers['idempotency-key'];
const timed = async <T>(run: () => Promise<T>) => {
	const started = Date.now();
	const result = await run();
	return { ...result, ms: Date.now() - started };
};

describe('an answer that trickles forever', () => {
	test('ends at the Timeout, is retried with the same key, then says the API stopped sending', async () => {
		sandbox.admin.setFaults({
			failNext: [{ kind: 'trickle', intervalMs: 100, times: 2, path: QUOTES }],
		});
		const { error, requests, ms } = await timed(
			async () => await runAgainst(sandbox, quote({ faultRetries: 1 })),
		);
		// Two attempts of 1 s each, and the backoff between them (0.5 s and a little jitter).
		expect(ms).toBeGreaterThanOrEqual(2000);
		expect(ms).toBeLessThan(4500);
		expect(error?.message).toBe(
			'The API stopped sending partway: no whole answer within 1 s (timeout) after 1 retry. Running the item again is safe.',
		);
		expect(error?.description).toMatch(
			/same Idempotency-Key.* Connection fault: E_ANSWER_STALLED$/,
		);
		expect(requests).toHaveLength(2);
		expect(new Set(requests.map(keyOf)).size).toBe(1);
		expect(requests.every((request) => request.clientClosed)).toBe(true);
	});

	test('the trickle stops being read: the next attempt is answered as usual', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'trickle', intervalMs: 100, path: QUOTES }] });
		const { error, items, requests } = await runAgainst(sandbox, quote({ faultRetries: 1 }));
		expect(error).toBeUndefined();
		expect(items[0].quoteId).toEqual(expect.any(String));
		expect(requests.map((request) => request.status)).toEqual([200, 201]);
	});

	test('a cancelled execution stops at once, in the middle of the body', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'trickle', intervalMs: 100, path: QUOTES }] });
		const { result, ms } = await timed(async () => ({
			result: await runNode(
				{ ...quote(), requestOptions: { timeout: 60_000 } },
				{ credentials: credentialsFor(sandbox), cancelAfterMs: 500 },
			),
		}));
		expect(ms).toBeLessThan(2000);
		expect(result.run.status).toBe('canceled');
	});
});

describe('an answer whose headers never come', () => {
	test('ends at the Timeout: no answer', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'noHeaders', path: QUOTES }] });
		const { error, ms } = await timed(
			async () => await runAgainst(sandbox, quote({ faultRetries: 0 })),
		);
		expect(ms).toBeLessThan(2500);
		expect(error?.message).toBe(
			'No answer from the API within 1 s (timeout). Running the item again is safe.',
		);
	});
});

describe('an answer that inflates past the bound', () => {
	test('a 1 GiB gzip bomb ends within seconds, naming the size and the bound, not retried', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'gzipBomb', path: '/partner-api/hubs' }] });
		const before = process.memoryUsage().rss;
		const { error, requests, ms } = await timed(
			async () => await runAgainst(sandbox, { resource: 'hub', operation: 'getAll' }),
		);
		expect(ms).toBeLessThan(10_000);
		expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
		expect(error?.message).toMatch(
			/^The API's answer grew past the 100 MiB an answer may hold; the node stopped reading\. Check the credential's Base URL/,
		);
		expect(error?.description).toMatch(/^More than [\d,]+ bytes came once decompressed\./);
		expect(error?.description).toMatch(/Connection fault: E_ANSWER_TOO_LARGE$/);
		expect(requests).toHaveLength(1);
	});

	test('a 50 MB list still gives its items', async () => {
		sandbox.admin.setFaults({
			failNext: [
				{ kind: 'bigList', records: 50_000, gzip: true, path: '/partner-api/support-cases' },
			],
		});
		const { error, items } = await runAgainst(sandbox, {
			resource: 'supportCase',
			operation: 'getAll',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(50_000);
		expect(items[49_999].caseId).toBe('case_big_0050000');
	});
});

describe('in the editor: the hub picker and the credential test end too', () => {
	// The editor waits 15 s for one answer and does not try a timed-out one again.
	test('the hub picker, on a trickle and on a bomb', async () => {
		const credentials = credentialsFor(sandbox);
		sandbox.admin.setFaults({ failNext: [{ kind: 'trickle', path: '/partner-api/hubs' }] });
		const started = Date.now();
		await expect(listSearch('searchHubs', { credentials })).rejects.toThrow(
			/^Could not load hubs: The API stopped sending partway: no whole answer within 15 s/,
		);
		expect(Date.now() - started).toBeLessThan(17_000);
		sandbox.admin.setFaults({ failNext: [{ kind: 'gzipBomb', path: '/partner-api/hubs' }] });
		await expect(listSearch('searchHubs', { credentials })).rejects.toThrow(
			/^Could not load hubs: The API's answer grew past the 100 MiB/,
		);
	}, 30_000);

	test('the credential test, on a trickle and on a bomb', async () => {
		const credentials = credentialsFor(sandbox);
		sandbox.admin.setFaults({ failNext: [{ kind: 'trickle', path: '/partner-api/hubs' }] });
		const started = Date.now();
		const trickled = await testCredential(credentials);
		expect(Date.now() - started).toBeLessThan(17_000);
		expect(trickled).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The API stopped sending partway/),
		});
		sandbox.admin.setFaults({ failNext: [{ kind: 'gzipBomb', path: '/partner-api/hubs' }] });
		expect(await testCredential(credentials)).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The API's answer grew past the 100 MiB/),
		});
	}, 30_000);
});
