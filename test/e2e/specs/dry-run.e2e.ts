import {
	derivedKey,
	expectSucceeded,
	lastSeq,
	type LoggedRequest,
	postsTo,
	runWithRequests,
	sandboxRequests,
} from '../lib/assertions';
import {
	type Batch,
	type BatchRun,
	nodeTime,
	orderRows,
	postBatch,
	type Preview,
	type Row,
	ROWS_TO_FIX,
	sampleBatch,
	sortedWires,
	type Step,
	STEP_NODES,
	wireOfPreview,
	wireOfRequest,
} from '../lib/dryRun';
import { refuseOneBooking } from '../lib/executionRetry';
import { WORKFLOW_IDS } from '../lib/fixtures';
import { type Execution, nodeOutput, nodePairedItems } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// Options › Dry Run in real n8n, through the Dry Run sample (workflows/22-dry-run-batch.json): a
// batch `{ dryRun, step, rows }` from Execute workflow or posted to its webhook; each Partner
// Logistics node's Dry Run is `dryRun !== false`, so one workflow previews a batch and then sends
// it. A preview must be what the real run then sends: method, URL and body byte for byte, and for
// an action on a quote or booking the same Idempotency-Key; nothing may reach the API meanwhile.
const suite = loadSuite();
const ROWS = 1000;
const QUOTES = /^\/partner-api\/booking-quotes$/;
const BOOKINGS = /^\/partner-api\/bookings$/;
const PAYMENTS = /^\/partner-api\/bookings\/[^/]+\/payment$/;
const quotesPath = '/partner-api/booking-quotes';

/** n8n's time for the node under test, dry run and real, reported at the end (not asserted). */
const timings: Array<{ what: string; dryMs: number; realMs: number }> = [];
afterAll(() => {
	if (!timings.length) return;
	const lines = timings.map(
		({ what, dryMs, realMs }) =>
			`${what}: dry run ${dryMs} ms, real run ${realMs} ms (dry ${(dryMs / realMs).toFixed(2)}× real)`,
	);
	console.log(`Node time in n8n (runData executionTime):\n${lines.join('\n')}`);
});

const previewsOf = (run: BatchRun, step: Step) =>
	nodeOutput(run.execution, STEP_NODES[step]) as unknown as Preview[];
const referenceOf = (body: unknown) => (body as { externalReference?: string }).externalReference;
const keyOf = (request: LoggedRequest) => request.headers['idempotency-key'];
const itemsPaired = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));
const run = (step: Step, dryRun: boolean, rows: Row[]) =>
	postBatch(suite, { dryRun, step, rows } satisfies Batch);

/** The documented shape: exactly these fields, the API key masked, the key in its header. */
function expectPreview(preview: Preview, method: string, url: string | RegExp) {
	const keyed = preview.idempotencyKey !== undefined;
	expect(Object.keys(preview).sort()).toEqual(
		[
			'dryRun',
			'method',
			'url',
			'headers',
			...(preview.body === undefined ? [] : ['body']),
			...(keyed ? ['idempotencyKey', 'idempotencyKeyMadeOf'] : []),
		].sort(),
	);
	expect(preview.dryRun).toBe(true);
	expect(preview.method).toBe(method);
	if (typeof url === 'string') expect(preview.url).toBe(url);
	else expect(preview.url).toMatch(url);
	expect(preview.headers).toEqual({
		Accept: 'application/json',
		'Content-Type': 'application/json',
		'X-SVC-API-Key': '[redacted]',
		...(keyed ? { 'Idempotency-Key': preview.idempotencyKey } : {}),
	});
}

/** Each request of the real run equals one preview byte for byte, and each preview was sent. */
function expectSentAsPreviewed(previews: Preview[], sent: LoggedRequest[], withKey: boolean) {
	const previewed = sortedWires(previews.map((preview) => wireOfPreview(preview, withKey)));
	const real = sortedWires(sent.map((request) => wireOfRequest(request, suite.sandbox, withKey)));
	expect(new Set(previewed).size).toBe(previews.length);
	expect(real).toEqual(previewed);
	// The sandbox's Content-Length is what it received: the bytes of JSON.stringify(preview.body).
	expect(sent.filter((request) => request.headers['content-length'] === undefined)).toEqual([]);
}

describe('the Dry Run option as n8n serves it to the editor', () => {
	it('is under Options, off by default, and the canvas subtitle begins "Dry run: " while it is on', async () => {
		const types = await suite.client.editorGet<
			Array<{
				name: string;
				subtitle?: string;
				properties: Array<{ name: string; options?: Array<{ name: string; default?: unknown }> }>;
			}>
		>('/types/nodes.json');
		const node = types.body.find(
			(type) => type.name === 'n8n-nodes-partner-logistics.partnerLogistics',
		);
		const options = node?.properties.filter((property) => property.name === 'options') ?? [];
		expect(options.length).toBeGreaterThan(0);
		for (const collection of options) {
			expect(collection.options?.find((option) => option.name === 'dryRun')).toMatchObject({
				default: false,
			});
		}
		// The subtitle is an expression over the node's parameters, which the editor evaluates.
		const expression = /^=\{\{([\s\S]*)\}\}$/.exec(node?.subtitle ?? '')?.[1];
		expect(expression).toBeDefined();
		const subtitle = (options: Record<string, unknown>) =>
			new Function('$parameter', `return (${expression});`)({
				resource: 'booking',
				operation: 'pay',
				options,
			}) as string;
		expect(subtitle({})).not.toMatch(/^Dry run/);
		expect(subtitle({ dryRun: false })).toBe(subtitle({}));
		expect(subtitle({ dryRun: true })).toBe(`Dry run: ${subtitle({})}`);
		expect(subtitle({ dryRun: '={{ $json.preview }}' })).toBe(
			`Dry run by expression: ${subtitle({})}`,
		);
	});
});

describe('the sample as the playground opens it: Execute workflow previews the sample batch', () => {
	const batch = sampleBatch(suite.sandbox);
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.dryRunBatch));
	});

	it('is a dry run of the quote step, and sends nothing', () => {
		expectSucceeded(execution);
		expect([batch.dryRun, batch.step]).toEqual([true, 'quote']);
		expect(requests).toEqual([]);
	});

	it('outputs the request of each good row, paired with it, and the bad rows on Rows to fix', () => {
		const previews = nodeOutput(execution, STEP_NODES.quote) as unknown as Preview[];
		expect(previews.map((preview) => referenceOf(preview.body))).toEqual([
			'ORD-3001',
			'ORD-3002',
			'ORD-3006',
		]);
		expect(nodePairedItems(execution, STEP_NODES.quote)).toEqual(
			[0, 1, 5].map((item) => ({ item })),
		);
		for (const preview of previews)
			expectPreview(preview, 'POST', `${suite.sandbox.url}${quotesPath}`);
		expect(nodePairedItems(execution, STEP_NODES.quote, 1)).toEqual(
			[2, 3, 4, 6].map((item) => ({ item })),
		);
		expect(nodeOutput(execution, ROWS_TO_FIX)).toEqual(nodeOutput(execution, STEP_NODES.quote, 1));
	});
});

/** The quotes of the 1,000 rows made for real by Map From Input Fields: booked and paid below. */
let quotedRows: Row[] = [];

describe.each([
	['quote', 'Route: Map From Input Fields', 'DRY-F'],
	['quoteByExpressions', 'the route from expressions', 'DRY-E'],
] as const)(
	'1,000 rows quoted with %s (%s): dry run, then the same workflow for real',
	(step, how, prefix) => {
		const rows = orderRows(ROWS, prefix);
		let dry: BatchRun;
		let real: BatchRun;
		let previews: Preview[];

		beforeAll(async () => {
			dry = await run(step, true, rows);
			real = await run(step, false, rows);
			previews = previewsOf(dry, step);
			timings.push({
				what: `Quote › Create, ${ROWS} rows, ${how}`,
				dryMs: nodeTime(dry.execution, STEP_NODES[step]),
				realMs: nodeTime(real.execution, STEP_NODES[step]),
			});
			if (step === 'quote') quotedRows = nodeOutput(real.execution, STEP_NODES[step]);
		});

		it('the dry run sends nothing: no request reaches the API', () => {
			expectSucceeded(dry.execution);
			expect(dry.requests).toEqual([]);
		});

		it('outputs one preview per row, paired with it, with the row as the body', () => {
			expect(previews).toHaveLength(ROWS);
			expect(nodePairedItems(dry.execution, STEP_NODES[step])).toEqual(itemsPaired(ROWS));
			expect(nodeOutput(dry.execution, STEP_NODES[step], 1)).toEqual([]);
			previews.forEach((preview, index) => {
				expectPreview(preview, 'POST', `${suite.sandbox.url}${quotesPath}`);
				expect(preview.body).toEqual(rows[index]);
			});
		});

		it('says each key is made of the rows and the item: the key the real run sends', () => {
			expect(previews.map((preview) => preview.idempotencyKeyMadeOf)).toEqual(
				rows.map(
					(_, index) =>
						`these input items and item ${index + 1}: a real run sends this key, and so does its Retry`,
				),
			);
			expect(previews.map((preview) => preview.idempotencyKey)).toEqual(
				rows.map(() => derivedKey('quote.create')),
			);
			expect(new Set(previews.map((preview) => preview.idempotencyKey)).size).toBe(ROWS);
		});

		it('the real run sends exactly the previewed requests: method, URL and body byte for byte', () => {
			expectSucceeded(real.execution);
			const posts = postsTo(real.requests, QUOTES);
			expect(real.requests).toHaveLength(ROWS);
			expect(posts.map((post) => post.status)).toEqual(rows.map(() => 201));
			expectSentAsPreviewed(previews, posts, true);
		});

		it('quotes every row once, under the keys its dry run previewed', () => {
			const quotes = nodeOutput(real.execution, STEP_NODES[step]);
			expect(quotes.map((quote) => quote.externalReference)).toEqual(
				rows.map((row) => row.externalReference),
			);
			expect(quotes.every((quote) => /^qt_/.test(String(quote.quoteId)))).toBe(true);
			const keys = real.requests.map(keyOf);
			expect(keys).toEqual(rows.map(() => derivedKey('quote.create')));
			expect(new Set(keys).size).toBe(ROWS);
			expect([...keys].sort()).toEqual(previews.map((preview) => preview.idempotencyKey).sort());
		});
	},
);

describe('those 1,000 quotes booked, then the 1,000 bookings paid: dry run, then for real', () => {
	let bookDry: BatchRun;
	let bookReal: BatchRun;
	let payDry: BatchRun;
	let payReal: BatchRun;
	let bookings: Row[];

	beforeAll(async () => {
		expect(quotedRows).toHaveLength(ROWS);
		bookDry = await run('book', true, quotedRows);
		bookReal = await run('book', false, quotedRows);
		bookings = nodeOutput(bookReal.execution, STEP_NODES.book);
		payDry = await run('pay', true, bookings);
		payReal = await run('pay', false, bookings);
		for (const [what, dry, real, step] of [
			['Booking › Create from quotes', bookDry, bookReal, 'book'],
			['Booking › Pay', payDry, payReal, 'pay'],
		] as const) {
			timings.push({
				what: `${what}, ${ROWS} rows`,
				dryMs: nodeTime(dry.execution, STEP_NODES[step]),
				realMs: nodeTime(real.execution, STEP_NODES[step]),
			});
		}
	});

	it('the dry runs send nothing', () => {
		expectSucceeded(bookDry.execution);
		expectSucceeded(payDry.execution);
		expect([bookDry.requests, payDry.requests]).toEqual([[], []]);
	});

	it("previews each booking under the quote's own key, the same in every execution", () => {
		const previews = previewsOf(bookDry, 'book');
		expect(nodePairedItems(bookDry.execution, STEP_NODES.book)).toEqual(itemsPaired(ROWS));
		previews.forEach((preview, index) => {
			expectPreview(preview, 'POST', `${suite.sandbox.url}/partner-api/bookings`);
			expect(preview.body?.quoteId).toBe(quotedRows[index].quoteId);
			expect(preview.idempotencyKeyMadeOf).toBe(
				`the API, this action and Quote ID ${String(quotedRows[index].quoteId)}: the same in every execution`,
			);
		});
	});

	it('the real run sends each previewed booking byte for byte, under the previewed key', () => {
		expectSucceeded(bookReal.execution);
		const posts = postsTo(bookReal.requests, BOOKINGS);
		expect(bookReal.requests).toHaveLength(ROWS);
		expect(posts.map((post) => [post.status, post.replayed])).toEqual(
			posts.map(() => [201, undefined]),
		);
		expectSentAsPreviewed(previewsOf(bookDry, 'book'), posts, true);
		expect(bookings.map((booking) => booking.quoteId)).toEqual(quotedRows.map((q) => q.quoteId));
	});

	it("previews each payment under the booking's own key", () => {
		const previews = previewsOf(payDry, 'pay');
		expect(nodePairedItems(payDry.execution, STEP_NODES.pay)).toEqual(itemsPaired(ROWS));
		previews.forEach((preview, index) => {
			const bookingId = String(bookings[index].bookingId);
			expectPreview(
				preview,
				'POST',
				`${suite.sandbox.url}/partner-api/bookings/${bookingId}/payment`,
			);
			expect(preview.idempotencyKeyMadeOf).toBe(
				`the API, this action and Booking ID ${bookingId}: the same in every execution`,
			);
		});
	});

	it('the real run sends each previewed payment byte for byte, under the previewed key', async () => {
		expectSucceeded(payReal.execution);
		const posts = postsTo(payReal.requests, PAYMENTS);
		expect(payReal.requests).toHaveLength(ROWS);
		expect(posts.map((post) => post.status)).toEqual(posts.map(() => 201));
		expectSentAsPreviewed(previewsOf(payDry, 'pay'), posts, true);
		const ids = new Set(bookings.map((booking) => String(booking.bookingId)));
		const { payments } = await suite.admin.stateOfOrgA();
		expect(payments.filter((payment) => ids.has(String(payment.resourceId)))).toHaveLength(ROWS);
	});
});

describe.each([['quote'], ['quoteByExpressions']] as const)(
	'rows that fail the checks, %s: the same error in dry run and for real, on the error output',
	(step) => {
		const { rows } = sampleBatch(suite.sandbox);
		const node = STEP_NODES[step];
		const bad = [2, 3, 4, 6];
		const good = [0, 1, 5];
		let dry: BatchRun;
		let real: BatchRun;

		beforeAll(async () => {
			dry = await run(step, true, rows);
			real = await run(step, false, rows);
		});

		it('the dry run puts each bad row on the error output, naming the row, the field and the rule', () => {
			expectSucceeded(dry.execution);
			expect(dry.requests).toEqual([]);
			expect(nodePairedItems(dry.execution, node, 1)).toEqual(bad.map((item) => ({ item })));
			const errors = nodeOutput(dry.execution, node, 1).map((item) => item.error);
			expect(errors).toEqual([
				'Item 3 (externalReference ORD-3003): Pickup Latitude (pickupLatitude) must be a number between −90 and 90, got 123',
				'Item 4 (externalReference ORD-3004): Pickup Hub (pickupHubId) is required, got nothing',
				'Item 5 (externalReference ORD-3005): Package Weight (Kg) (packageWeightKg) must be a number from 0.01 to 50, got 51',
				'Item 7 (externalReference ORD-3007): Drop-Off Hub (dropoffHubId) is required, got nothing',
			]);
			expect(nodeOutput(dry.execution, ROWS_TO_FIX)).toEqual(nodeOutput(dry.execution, node, 1));
		});

		it('the real run fails the same rows with the same words, on the error output', () => {
			expectSucceeded(real.execution);
			expect(nodeOutput(real.execution, node, 1)).toEqual(nodeOutput(dry.execution, node, 1));
			expect(nodePairedItems(real.execution, node, 1)).toEqual(
				nodePairedItems(dry.execution, node, 1),
			);
			expect(nodeOutput(real.execution, ROWS_TO_FIX)).toEqual(
				nodeOutput(dry.execution, ROWS_TO_FIX),
			);
		});

		it('sends nothing for them, and the good rows exactly as previewed', () => {
			const posts = postsTo(real.requests, QUOTES);
			expect(real.requests).toHaveLength(good.length);
			expect(posts.map((post) => referenceOf(post.body)).sort()).toEqual(
				good.map((index) => rows[index].externalReference).sort(),
			);
			expect(nodePairedItems(dry.execution, node)).toEqual(good.map((item) => ({ item })));
			expectSentAsPreviewed(previewsOf(dry, step), posts, false);
			expect(nodeOutput(real.execution, node).map((quote) => quote.externalReference)).toEqual(
				good.map((index) => rows[index].externalReference),
			);
		});
	},
);

describe('a bad row where On Error stops the workflow (Book each quote): the same execution error, dry and real', () => {
	let dry: BatchRun;
	let real: BatchRun;
	let rows: Row[];

	beforeAll(async () => {
		const quoted = await run('quote', false, orderRows(2, 'STOP'));
		const quotes = nodeOutput(quoted.execution, STEP_NODES.quote);
		rows = [quotes[0], { ...quotes[1], dropoffLatitude: -91 }];
		dry = await run('book', true, rows);
		real = await run('book', false, rows);
	});

	it('the dry run fails the execution with the error of the bad row, and sends nothing', () => {
		expect(dry.execution.status).toBe('error');
		expect(dry.requests).toEqual([]);
		// The booking's route is checked against the quote's (the row is a Quote › Create item).
		expect(dry.execution.data?.resultData.error).toMatchObject({
			message:
				'Item 2 (externalReference STOP-0002): Drop-Off Latitude (dropoffLatitude) differs from the route the quote was priced for (quoted: 6.4473), got -91',
			description:
				"A booking must repeat its quote's route. Nothing was sent to the API for this item. Correct the value and run again.",
			node: { name: STEP_NODES.book },
		});
	});

	it('the real run fails with exactly that error: message and description', () => {
		expect(real.execution.status).toBe('error');
		const { message, description } = real.execution.data!.resultData.error!;
		expect({ message, description }).toEqual({
			message: dry.execution.data?.resultData.error?.message,
			description: dry.execution.data?.resultData.error?.description,
		});
		expect(
			postsTo(real.requests, BOOKINGS).map((post) => (post.body as Row).quoteId),
		).not.toContain(rows[1].quoteId);
	});
});

describe('dry run, a real run that fails part-way, then Executions › Retry: each quote booked once', () => {
	let settingsBefore: { repeatActions: boolean; replayRefusals: boolean };
	let quotes: Row[];
	let dry: BatchRun;
	let failed: BatchRun;
	let dryAfter: BatchRun;
	let retried: BatchRun;

	beforeAll(async () => {
		({ settings: settingsBefore } = await suite.admin.get<{
			settings: { repeatActions: boolean; replayRefusals: boolean };
		}>('/state'));
		// An API that books a quote again under any new key, and keeps a refusal for its key (as
		// Stripe does): a booking sent twice under two keys would be two bookings.
		await suite.admin.setRepeatActions(true);
		await suite.admin.setReplayRefusals(true);
		const quoted = await run('quote', false, orderRows(10, 'RETRY'));
		quotes = nodeOutput(quoted.execution, STEP_NODES.quote);
		dry = await run('book', true, quotes);
		await suite.admin.setFaults(refuseOneBooking);
		try {
			failed = await run('book', false, quotes);
		} finally {
			await suite.admin.setFaults({});
		}
		dryAfter = await run('book', true, quotes);
		const since = await lastSeq(suite.admin);
		const execution = await suite.client.retryExecution(failed.execution.id, false);
		retried = { execution, requests: await sandboxRequests(suite.admin, since) };
	});

	afterAll(async () => {
		await suite.admin.setFaults({});
		await suite.admin.setRepeatActions(settingsBefore.repeatActions);
		await suite.admin.setReplayRefusals(settingsBefore.replayRefusals);
	});

	const quoteIdOf = (request: LoggedRequest) => (request.body as { quoteId: string }).quoteId;
	const previewKeys = (run: BatchRun) =>
		new Map(
			previewsOf(run, 'book').map((preview) => [preview.body?.quoteId, preview.idempotencyKey]),
		);

	it('the dry run sends nothing', () => {
		expectSucceeded(dry.execution);
		expect(quotes).toHaveLength(10);
		expect(dry.requests).toEqual([]);
	});

	it('the real run fails at the refused booking, every booking sent under its previewed key', () => {
		expect(failed.execution.status).toBe('error');
		expect(failed.execution.data?.resultData.error?.message).toMatch(
			/^The API refused the request as invalid \(400\)/,
		);
		const posts = postsTo(failed.requests, BOOKINGS);
		expect(posts.filter((post) => post.status === 400)).toHaveLength(1);
		const keys = previewKeys(dry);
		expect(posts.map((post) => keyOf(post))).toEqual(
			posts.map((post) => keys.get(quoteIdOf(post))),
		);
		expect(sortedWires(posts.map((post) => wireOfRequest(post, suite.sandbox, true)))).toEqual(
			sortedWires(
				previewsOf(dry, 'book')
					.filter((preview) => posts.some((post) => quoteIdOf(post) === preview.body?.quoteId))
					.map((preview) => wireOfPreview(preview, true)),
			),
		);
	});

	it('a dry run after it previews a new key for the refused quote only, and sends nothing', () => {
		expect(dryAfter.requests).toEqual([]);
		const refused = quoteIdOf(
			postsTo(failed.requests, BOOKINGS).find((post) => post.status === 400)!,
		);
		const before = previewKeys(dry);
		const after = previewKeys(dryAfter);
		const changed = [...after].filter(([quoteId, key]) => before.get(quoteId) !== key);
		expect(changed.map(([quoteId]) => quoteId)).toEqual([refused]);
		expect(changed[0][1]).toEqual(derivedKey('booking.create'));
	});

	it('the retry succeeds and sends each booking under the key the last dry run previewed', () => {
		expectSucceeded(retried.execution);
		expect(retried.execution).toMatchObject({ mode: 'retry', retryOf: failed.execution.id });
		const posts = postsTo(retried.requests, BOOKINGS);
		const keys = previewKeys(dryAfter);
		expect(posts.map((post) => keyOf(post))).toEqual(
			posts.map((post) => keys.get(quoteIdOf(post))),
		);
		expect(postsTo(retried.requests, QUOTES)).toEqual([]);
	});

	it('each quote is booked exactly once: one booking each in the sandbox, one new booking request each', async () => {
		const ids = quotes.map((quote) => String(quote.quoteId));
		const { bookings } = await suite.admin.stateOfOrgA();
		const stored = bookings.filter((booking) => ids.includes(String(booking.quoteId)));
		expect(stored.map((booking) => booking.quoteId).sort()).toEqual([...ids].sort());
		const made = [...postsTo(failed.requests, BOOKINGS), ...postsTo(retried.requests, BOOKINGS)]
			.filter((post) => post.status === 201 && !post.replayed)
			.map(quoteIdOf);
		expect(made.sort()).toEqual([...ids].sort());
		expect(
			nodeOutput(retried.execution, STEP_NODES.book).map((booking) => booking.quoteId),
		).toEqual(ids);
	});
});
