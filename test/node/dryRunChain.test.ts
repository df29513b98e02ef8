import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { runWorkflow, toolOf, type HarnessNode, type RunResult } from '../harness';
import { clickRoute, credentialsFor, routeFromRows } from './helpers';

// Dry Run along a chain, quote -> booking -> payment, through n8n-core's engine against the
// sandbox: each creation's preview stands in for the id the API would answer, so the next node in
// Dry Run previews its own request; with Dry Run off, a node refuses a stand-in or a preview item
// before anything is sent.

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.close());

const rows: IDataObject[] = [1, 2, 3].map((n) => ({
	...clickRoute,
	pickupAddress: `${n} Allen Avenue, Ikeja`,
}));
const withDryRun = (parameters: INodeParameters, dryRun: boolean): INodeParameters => ({
	...parameters,
	options: { dryRun },
});
const QUOTE: INodeParameters = { resource: 'quote', operation: 'create', ...routeFromRows };
const BOOK: INodeParameters = {
	resource: 'booking',
	operation: 'create',
	quoteId: '={{ $json.quoteId }}',
};
const pay = (): INodeParameters => ({
	resource: 'booking',
	operation: 'pay',
	bookingId: '={{ $json.bookingId }}',
	paymentMethodId: sandbox.savedCards.enabled,
});
const chain = (dry: [boolean, boolean, boolean], last: Partial<HarnessNode> = {}) => [
	{ name: 'Quote', parameters: withDryRun(QUOTE, dry[0]) },
	{ name: 'Book', parameters: withDryRun(BOOK, dry[1]) },
	{ name: 'Pay', parameters: withDryRun(pay(), dry[2]), ...last },
];
async function run(nodes: HarnessNode[], input: IDataObject[] = rows) {
	sandbox.clearLog();
	const result = await runWorkflow({ nodes, input, credentials: credentialsFor(sandbox) });
	return { result, requests: sandbox.requests() };
}
const items = (result: RunResult, node: string) => result.output(node).map((item) => item.json);
const hints = (result: RunResult, node: string) =>
	result.run.data.resultData.runData[node]?.[0].hints ?? [];
const standIn = (id: string, item: number, node: string) =>
	`[dry run: ${id} of item ${item} from "${node}"]`;

describe('a chain in Dry Run', () => {
	test('quote -> booking -> payment: each preview carries its stand-in, nothing is sent; the real run sends the same requests with the real ids', async () => {
		const dry = await run(chain([true, true, true]));
		expect(dry.requests).toEqual([]);
		const [quotes, bookings, payments] = ['Quote', 'Book', 'Pay'].map((node) =>
			items(dry.result, node),
		);
		expect([quotes.length, bookings.length, payments.length]).toEqual([3, 3, 3]);
		quotes.forEach((quote, i) => expect(quote.quoteId).toBe(standIn('quoteId', i + 1, 'Quote')));
		bookings.forEach((booking, i) => {
			expect(booking.request).toBe(`POST ${sandbox.url}/partner-api/bookings`);
			expect((booking.body as IDataObject).quoteId).toBe(standIn('quoteId', i + 1, 'Quote'));
			expect(booking.bookingId).toBe(standIn('bookingId', i + 1, 'Book'));
			expect(booking.dryRun).toContain(
				'quoteId is a stand-in from "Quote": a real run sends the real quoteId and keys by it.',
			);
			expect(booking.dryRun).toContain(
				'Its Idempotency-Key is made of stand-ins: a real run sends another.',
			);
		});
		payments.forEach((payment, i) => {
			const path = encodeURIComponent(standIn('bookingId', i + 1, 'Book'));
			expect(payment.request).toBe(`POST ${sandbox.url}/partner-api/bookings/${path}/payment`);
			expect(payment.reference).toBe(standIn('reference', i + 1, 'Pay'));
		});
		// The output panel says so, on every node of the chain.
		for (const node of ['Quote', 'Book', 'Pay']) {
			expect(hints(dry.result, node)).toEqual([
				{
					message:
						'Dry Run: nothing was sent to the API. Each item is the request a real run would send; turn off Options › Dry Run to send.',
					type: 'warning',
					location: 'outputPane',
				},
			]);
		}

		const real = await run(chain([false, false, false]));
		expect(real.result.error('Pay')).toBeUndefined();
		expect(hints(real.result, 'Pay')).toEqual([]);
		const sent = (path: RegExp) => real.requests.filter((request) => path.test(request.path));
		const quoteIds = items(real.result, 'Quote').map((quote) => quote.quoteId);
		const bookingIds = items(real.result, 'Book').map((booking) => booking.bookingId);
		// The same bodies, but for the stand-ins, which the real ids replace.
		const byQuote = (quoteId: unknown) => quoteIds.findIndex((id) => id === quoteId);
		expect(
			sent(/^\/partner-api\/booking-quotes$/)
				.map((request) => request.body)
				.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
		).toEqual(
			quotes
				.map((quote) => quote.body)
				.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
		);
		const bookingsSent = sent(/^\/partner-api\/bookings$/);
		expect(bookingsSent).toHaveLength(3);
		for (const request of bookingsSent) {
			const body = request.body as IDataObject;
			const i = byQuote(body.quoteId);
			expect(i).toBeGreaterThanOrEqual(0);
			expect(body).toEqual({ ...(bookings[i].body as IDataObject), quoteId: quoteIds[i] });
		}
		const paymentsSent = sent(/^\/partner-api\/bookings\/[^/]+\/payment$/);
		expect(paymentsSent.map((request) => request.path).sort()).toEqual(
			bookingIds.map((id) => `/partner-api/bookings/${String(id)}/payment`).sort(),
		);
		for (const request of paymentsSent) expect(request.body).toEqual(payments[0].body);
	});
});

describe('a preview is never sent', () => {
	const refusedBy = (node: string, what: string) =>
		`Item 1 ${what} from "${node}": turn off Dry Run there`;

	test('a node with Dry Run off refuses a preview item from a node left in Dry Run upstream', async () => {
		const { result, requests } = await run(chain([true, false, false]), [rows[0]]);
		expect(requests).toEqual([]);
		const error = result.error('Book') as Error & { description?: string };
		expect(error.message).toBe(refusedBy('Quote', 'is a Dry Run preview'));
		expect(error.message.length).toBeLessThanOrEqual(120);
		expect(error.description).toMatch(/^Node "Quote" ran with Options › Dry Run on/);
	});

	test('a stand-in from pinned data or a Set node is refused, on the error output when set', async () => {
		// A Set node keeps only the booking id: no preview left, but its stand-in.
		const copied = { bookingId: standIn('bookingId', 1, 'Book') };
		const last = { settings: { onError: 'continueErrorOutput' as const } };
		const nodes = chain([false, false, false], last).slice(2);
		const { result, requests } = await run(nodes, [copied, { bookingId: 'bk_real' }]);
		expect(requests.map((request) => request.path)).toEqual([
			'/partner-api/bookings/bk_real/payment',
		]);
		const outputs = result.run.data.resultData.runData.Pay[0].data!.main;
		// The stand-in's item on the error output; the other item went on (the API knows no bk_real).
		const errors = outputs[1]!.map((item) => item.json.error);
		expect(errors[0]).toBe(refusedBy('Book', 'sends bookingId as a Dry Run stand-in'));
		expect(outputs[1]!.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('a long node name is cut so the message stays within 120 characters', async () => {
		const name =
			'Book every quote of the morning batch for the Lagos depot, then the afternoon one';
		const copied = { bookingId: standIn('bookingId', 1, name) };
		const { result, requests } = await run(chain([false, false, false]).slice(2), [copied]);
		expect(requests).toEqual([]);
		const error = result.error('Pay') as Error & { description?: string };
		expect(error.message.length).toBe(120);
		expect(error.message).toMatch(
			/^Item 1 sends bookingId as a Dry Run stand-in from "Book every .*…": turn off Dry Run there$/,
		);
		expect(error.description).toContain(`Node "${name}"`);
	});
});

describe('as AI tools', () => {
	const fromAi = (key: string, type: 'string' | 'number') =>
		`={{ $fromAI('${key}', \`The ${key}\`, '${type}') }}`;
	const { serviceType, ...route } = clickRoute;
	const routeFromAi = Object.fromEntries(
		Object.entries(route).map(([key, value]) => [
			key,
			fromAi(key, typeof value === 'number' ? 'number' : 'string'),
		]),
	);
	const tool = (parameters: INodeParameters, dryRun: boolean, name: string) =>
		toolOf(withDryRun({ ...parameters, serviceType, ...routeFromAi }, dryRun), {
			credentials: credentialsFor(sandbox),
			name,
		});
	const bookTool = {
		resource: 'booking',
		operation: 'create',
		routeSource: 'define',
		quoteId: fromAi('quoteId', 'string'),
	};

	test('an agent that previewed a quote and asks to book it gets a booking preview', async () => {
		sandbox.clearLog();
		const quoted = JSON.parse(
			await tool({ resource: 'quote', operation: 'create' }, true, 'Quote').invoke(route),
		) as IDataObject[];
		const { quoteId } = quoted[0];
		expect(quoteId).toBe(standIn('quoteId', 1, 'Quote'));
		const booked = JSON.parse(
			await tool(bookTool, true, 'Book').invoke({ ...route, quoteId }),
		) as IDataObject[];
		expect(booked).toEqual([
			expect.objectContaining({
				request: `POST ${sandbox.url}/partner-api/bookings`,
				body: { serviceType, ...route, quoteId },
				bookingId: standIn('bookingId', 1, 'Book'),
			}),
		]);
		// Asked to book it for real, the booking tool refuses the stand-in.
		await expect(tool(bookTool, false, 'Book').invoke({ ...route, quoteId })).rejects.toThrow(
			'Item 1 sends quoteId as a Dry Run stand-in from "Quote": turn off Dry Run there',
		);
		expect(sandbox.requests()).toEqual([]);
	});
});
