import type { IDataObject, INodeParameters, NodeApiError } from 'n8n-workflow';

import { apiClient, type ApiClient } from '../sandbox/apiClient';
import { HOME_DROPOFF, HOME_PICKUP } from '../sandbox/routeForms';
import { startSandbox, type RequestLogEntry, type Sandbox } from '../sandbox';
import { runNode, toolOf, type RunResult } from '../harness';
import { credentialsFor } from './helpers';

// An action on something that exists (booking a quote, paying a booking, accepting or paying a
// quotation) is keyed by that thing, not by the execution: every new execution that asks for it
// again gets the API's first answer. Run through n8n-core's engine against the sandbox in
// repeat-actions mode (it would book or pay again under any new key) and replay-refusals mode
// (it replays a refusal under its key, as Stripe does).

let sandbox: Sandbox;
let api: ApiClient;
beforeAll(async () => {
	sandbox = await startSandbox({ repeatActions: true, replayRefusals: true });
	api = apiClient(sandbox);
});
afterAll(async () => await sandbox.close());
afterEach(() => sandbox.admin.setFaults({}));

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
const keyOf = (request: RequestLogEntry) => request.headers['idempotency-key'];
const counts = () => sandbox.admin.state().A.counts;
const card = () => sandbox.savedCards.enabled;

async function quote(): Promise<IDataObject> {
	const { body } = await api.post('/partner-api/booking-quotes', route);
	return { ...body, quotedRoute: route };
}
async function booking(): Promise<string> {
	const { quoteId } = await quote();
	return (await api.post('/partner-api/bookings', { ...route, quoteId })).body.bookingId;
}
async function quoteRequest(creditTerms = false): Promise<string> {
	const { body } = await api.post('/partner-api/quote-requests', { itemDescription: 'Cement' });
	sandbox.admin.issueQuoteRequestQuotation(body.quoteRequestId, { creditTerms });
	return body.quoteRequestId;
}
async function quotation(creditTerms = false): Promise<string> {
	const { body } = await api.post('/partner-api/haulage/quotations', { cargo: 'Steel' });
	sandbox.admin.issueHaulageQuotation(body.quotationId, { creditTerms });
	return body.quotationId;
}

interface Action {
	action: string;
	path: RegExp;
	/** Parameters and input item of one item acting on a new referent. */
	setUp: () => Promise<{ parameters: INodeParameters; input?: IDataObject }>;
	/** Records the action makes, where the sandbox keeps one per action. */
	records?: 'bookings' | 'payments';
}

const ACTIONS: Action[] = [
	{
		action: 'Booking › Create (by its quote)',
		path: /^\/partner-api\/bookings$/,
		setUp: async () => ({
			parameters: { resource: 'booking', operation: 'create' },
			input: await quote(),
		}),
		records: 'bookings',
	},
	{
		action: 'Booking › Pay (by its booking)',
		path: /^\/partner-api\/bookings\/[^/]+\/payment$/,
		setUp: async () => ({
			parameters: {
				resource: 'booking',
				operation: 'pay',
				bookingId: await booking(),
				paymentMethodId: card(),
			},
		}),
		records: 'payments',
	},
	{
		action: 'Quote Request › Pay (by its quote request)',
		path: /^\/partner-api\/quote-requests\/[^/]+\/payment$/,
		setUp: async () => ({
			parameters: {
				resource: 'quoteRequest',
				operation: 'pay',
				quoteRequestId: await quoteRequest(),
				paymentMethod: 'SAVED_CARD',
				paymentMethodId: card(),
			},
		}),
		records: 'payments',
	},
	{
		action: 'Quote Request › Accept Credit (by its quote request)',
		path: /^\/partner-api\/quote-requests\/[^/]+\/credit-accept$/,
		setUp: async () => ({
			parameters: {
				resource: 'quoteRequest',
				operation: 'acceptCredit',
				quoteRequestId: await quoteRequest(true),
			},
		}),
	},
	{
		action: 'Haulage Quotation › Pay (by its quotation and stage)',
		path: /^\/partner-api\/haulage\/quotations\/[^/]+\/payment$/,
		setUp: async () => ({
			parameters: {
				resource: 'haulageQuotation',
				operation: 'pay',
				quotationId: await quotation(),
				paymentMethod: 'SAVED_CARD',
				paymentMethodId: card(),
			},
		}),
		records: 'payments',
	},
	...(['accept', 'decline'] as const).map(
		(operation): Action => ({
			action: `Haulage Quotation › ${operation === 'accept' ? 'Accept' : 'Decline'} (by its quotation)`,
			path: new RegExp(`^/partner-api/haulage/quotations/[^/]+/${operation}$`),
			setUp: async () => ({
				parameters: { resource: 'haulageQuotation', operation, quotationId: await quotation() },
			}),
		}),
	),
	{
		action: 'Haulage Quotation › Accept Credit (by its quotation)',
		path: /^\/partner-api\/haulage\/quotations\/[^/]+\/credit-accept$/,
		setUp: async () => ({
			parameters: {
				resource: 'haulageQuotation',
				operation: 'acceptCredit',
				quotationId: await quotation(true),
			},
		}),
	},
];

/** One new execution of one node on the given items, and the action's POSTs it made. */
async function execution(
	action: Action,
	parameters: INodeParameters,
	input: IDataObject[] = [{}],
	staticData?: IDataObject,
): Promise<{ result: RunResult; posts: RequestLogEntry[] }> {
	sandbox.clearLog();
	const result = await runNode(parameters, {
		credentials: credentialsFor(sandbox),
		input,
		settings: { onError: 'continueRegularOutput' },
		staticData,
	});
	const posts = sandbox
		.requests({ method: 'POST' })
		.filter((request) => action.path.test(request.path));
	return { result, posts };
}

describe.each(ACTIONS)('$action', (action) => {
	test('a new execution asking again gets the first answer, under the same key; nothing is done twice', async () => {
		const { parameters, input } = await action.setUp();
		const before = action.records && counts()[action.records];
		const first = await execution(action, parameters, [input ?? {}]);
		expect(first.result.error()).toBeUndefined();
		expect(first.posts.map((post) => [post.status < 300, post.replayed])).toEqual([
			[true, undefined],
		]);

		const again = await execution(action, parameters, [input ?? {}]);
		expect(again.result.error()).toBeUndefined();
		expect(again.posts.map((post) => [post.status, post.replayed])).toEqual([
			[first.posts[0].status, true],
		]);
		expect(keyOf(again.posts[0])).toBe(keyOf(first.posts[0]));
		// The item's output is the API's first answer, as for any success.
		expect(again.result.output()[0].json).toEqual(first.result.output()[0].json);
		if (action.records) expect(counts()[action.records]).toBe(before! + 1);
	});

	test('another referent gets another key, and is done', async () => {
		const one = await action.setUp();
		const other = await action.setUp();
		const first = await execution(action, one.parameters, [one.input ?? {}]);
		const second = await execution(action, other.parameters, [other.input ?? {}]);
		expect(second.posts.map((post) => [post.status < 300, post.replayed])).toEqual([
			[true, undefined],
		]);
		expect(keyOf(second.posts[0])).not.toBe(keyOf(first.posts[0]));
	});

	test('a refusal, fixed and retried from a new execution, reaches the API as a new request', async () => {
		const { parameters, input } = await action.setUp();
		sandbox.admin.setFaults({
			failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: action.path }],
		});
		const refused = await execution(action, parameters, [input ?? {}]);
		sandbox.admin.setFaults({});
		expect(refused.posts.map((post) => post.status)).toEqual([400]);
		expect(refused.result.output()[0].json.error).toMatch(/refused the request as invalid/);

		const fixed = await execution(action, parameters, [input ?? {}]);
		expect(fixed.result.output()[0].json.error).toBeUndefined();
		expect(fixed.posts.map((post) => [post.status < 300, post.replayed])).toEqual([
			[true, undefined],
		]);
		expect(keyOf(fixed.posts[0])).not.toBe(keyOf(refused.posts[0]));

		// From then on every run asks under the key that worked: the API replays its answer.
		const again = await execution(action, parameters, [input ?? {}]);
		expect(again.posts.map((post) => [keyOf(post), post.replayed])).toEqual([
			[keyOf(fixed.posts[0]), true],
		]);
	});
});

describe('the refusal memory outlives the process in the workflow static data', () => {
	const PAY = ACTIONS[1];

	test('a run refused for good writes it there (n8n saves it); a run never refused writes nothing', async () => {
		const ok = await PAY.setUp();
		const done = await execution(PAY, ok.parameters);
		expect(done.result.staticData.changed).toBe(false);
		expect(JSON.stringify(done.result.staticData.data)).not.toMatch(/partnerLogistics/);

		const { parameters } = await PAY.setUp();
		sandbox.admin.setFaults({
			failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: PAY.path }],
		});
		const refused = await execution(PAY, parameters);
		expect(refused.result.staticData.changed).toBe(true);
		const { global } = refused.result.staticData.data as { global: IDataObject };
		expect(Object.values(global.partnerLogisticsRefusals as IDataObject)).toEqual([1]);
	});

	test('a new execution in a fresh n8n process reads it: the fixed request is new to the API', async () => {
		const { parameters } = await PAY.setUp();
		sandbox.admin.setFaults({
			failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: PAY.path }],
		});
		const refused = await execution(PAY, parameters);
		sandbox.admin.setFaults({});
		const saved = refused.result.staticData.data;

		// A fresh copy of the node's modules is a fresh process: nothing of the refusal in memory.
		const inFreshProcess = async (staticData?: IDataObject) => {
			let harness: typeof import('../harness') | undefined;
			await jest.isolateModulesAsync(async () => {
				harness = await import('../harness');
			});
			sandbox.clearLog();
			await harness!.runNode(parameters, {
				credentials: credentialsFor(sandbox),
				settings: { onError: 'continueRegularOutput' },
				staticData,
			});
			return sandbox.requests({ method: 'POST' }).filter((post) => PAY.path.test(post.path));
		};
		// Without the saved static data the first key goes out again and the API replays its
		// refusal: safe (nothing paid), but not what the user fixed.
		expect((await inFreshProcess()).map((post) => [post.status, post.replayed])).toEqual([
			[400, true],
		]);
		const fresh = await inFreshProcess(saved);
		expect(fresh.map((post) => [post.status, post.replayed])).toEqual([[201, undefined]]);
		expect(keyOf(fresh[0])).not.toBe(keyOf(refused.posts[0]));
	});

	test('a dry run in a fresh n8n process shows the key the real run then sends', async () => {
		const { parameters } = await PAY.setUp();
		sandbox.admin.setFaults({
			failNext: [{ kind: 'refuse', status: 400, method: 'POST', path: PAY.path }],
		});
		const refused = await execution(PAY, parameters);
		sandbox.admin.setFaults({});
		const staticData = refused.result.staticData.data;

		let harness: typeof import('../harness') | undefined;
		await jest.isolateModulesAsync(async () => {
			harness = await import('../harness');
		});
		const credentials = credentialsFor(sandbox);
		sandbox.clearLog();
		const dryRun = { ...parameters, options: { dryRun: true } };
		const preview = await harness!.runNode(dryRun, { credentials, staticData });
		expect(sandbox.requests()).toEqual([]);
		expect(preview.staticData.changed).toBe(false);
		const shown = preview.output()[0].json.idempotencyKey;
		expect(shown).not.toBe(keyOf(refused.posts[0]));

		await harness!.runNode(parameters, { credentials, staticData });
		const [sent] = sandbox.requests({ method: 'POST' });
		expect([sent.status, keyOf(sent)]).toEqual([201, shown]);
	});
});

describe('within one run', () => {
	test('two items booking the same quote get one booking and the same answer, no 409', async () => {
		const input = await quote();
		const before = counts().bookings;
		const { result, posts } = await execution(
			ACTIONS[0],
			{ resource: 'booking', operation: 'create' },
			[input, input],
		);
		const out = result.output().map((item) => item.json);
		expect(out.map((json) => json.error)).toEqual([undefined, undefined]);
		expect(out[1]).toEqual(out[0]);
		expect(posts.map((post) => [post.status, post.replayed])).toEqual([
			[201, undefined],
			[201, true],
		]);
		expect(counts().bookings).toBe(before + 1);
	});

	test('two quotes with identical routes are two bookings', async () => {
		const [one, two] = [await quote(), await quote()];
		const before = counts().bookings;
		const { result, posts } = await execution(
			ACTIONS[0],
			{ resource: 'booking', operation: 'create' },
			[one, two],
		);
		expect(result.output().map((item) => item.json.quoteId)).toEqual([one.quoteId, two.quoteId]);
		expect(new Set(posts.map(keyOf)).size).toBe(2);
		expect(counts().bookings).toBe(before + 2);
	});
});

describe('asked twice at the same moment in one n8n', () => {
	// The first request is held 600 ms after the API reserved its key, and the second leaves
	// 150 ms after the first: sent at once, the second would meet the first still in progress.
	const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	test('two executions booking one quote: one booking, the same answer twice, no 409', async () => {
		const input = await quote();
		const before = counts().bookings;
		sandbox.clearLog();
		sandbox.admin.setFaults({ delayMs: 600 });
		const book = async () =>
			await runNode(
				{ resource: 'booking', operation: 'create' },
				{
					credentials: credentialsFor(sandbox),
					input: [input],
					settings: { onError: 'continueRegularOutput' },
				},
			);
		const first = book();
		await sleep(150);
		const [one, two] = await Promise.all([first, book()]);
		const posts = sandbox.requests({ method: 'POST' }).filter((r) => ACTIONS[0].path.test(r.path));
		expect(posts.map((post) => [post.status, post.replayed])).toEqual([
			[201, undefined],
			[201, true],
		]);
		expect(two.output()[0].json).toEqual(one.output()[0].json);
		expect(one.output()[0].json.error).toBeUndefined();
		expect(counts().bookings).toBe(before + 1);
	});

	test("an agent's two parallel Booking › Pay calls for one booking: one payment, the same answer", async () => {
		const bookingId = await booking();
		const before = counts().payments;
		const tool = toolOf(
			{
				resource: 'booking',
				operation: 'pay',
				bookingId: "={{ $fromAI('bookingId', 'The booking to pay', 'string') }}",
				paymentMethodId: card(),
			},
			{ credentials: credentialsFor(sandbox), executionId: 'agent-1' },
		);
		sandbox.clearLog();
		sandbox.admin.setFaults({ delayMs: 600 });
		const first = tool.invoke({ bookingId });
		await sleep(150);
		const [one, two] = await Promise.all([first, tool.invoke({ bookingId })]);
		expect(two).toBe(one);
		expect(JSON.parse(one)).toEqual([expect.objectContaining({ resourceId: bookingId })]);
		const posts = sandbox.requests({ method: 'POST' }).filter((r) => ACTIONS[1].path.test(r.path));
		expect(posts.map((post) => [post.status, post.replayed])).toEqual([
			[201, undefined],
			[201, true],
		]);
		expect(counts().payments).toBe(before + 1);
	});
});

describe('what the user reads, and what the user can still choose', () => {
	test('a booking paid before with other values: the 409 says the key is the booking’s', async () => {
		const bookingId = await booking();
		const pay = { resource: 'booking', operation: 'pay', bookingId };
		await execution(ACTIONS[1], { ...pay, paymentMethodId: card() });
		const other = await execution(ACTIONS[1], {
			...pay,
			paymentMethodId: sandbox.savedCards.notEnabled,
		});
		expect(other.posts.map((post) => post.status)).toEqual([409]);
		const [conflict] = other.result.output();
		expect(conflict.json.error).toBe(
			`Conflict (409). To send other values for Booking ID ${bookingId} as a new request, set Options › Idempotency Key.`,
		);
		expect((conflict.error as NodeApiError).description).toContain(
			'The API answered 409 with: {"code":"IDEMPOTENCY_KEY_REUSED","message":"This Idempotency-Key was already used for a different request (method, path or body). Use a new key for a new request."',
		);
		expect((conflict.error as NodeApiError).description).toMatch(
			new RegExp(
				`^This action's Idempotency-Key is derived from Booking ID ${bookingId}, so it is done once whichever run asks: an earlier request for it with other values holds the key \\(the API keeps the first\\)`,
			),
		);
	});

	test('Options › Idempotency Key still decides: a key of the user’s own pays again', async () => {
		const bookingId = await booking();
		const pay = { resource: 'booking', operation: 'pay', bookingId, paymentMethodId: card() };
		const before = counts().payments;
		const first = await execution(ACTIONS[1], pay);
		const own = await execution(ACTIONS[1], { ...pay, options: { idempotencyKey: 'pay-again-1' } });
		expect(own.posts.map((post) => [keyOf(post), post.status, post.replayed])).toEqual([
			['pay-again-1', 201, undefined],
		]);
		expect(keyOf(first.posts[0])).not.toBe('pay-again-1');
		expect(counts().payments).toBe(before + 2);
	});
});
