import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { processMemorySizes } from '../../nodes/PartnerLogistics/shared/processMemory';
import { apiClient, type ApiClient } from '../sandbox/apiClient';
import { HOME_DROPOFF, HOME_PICKUP } from '../sandbox/routeForms';
import { startSandbox, type RequestLogEntry, type Sandbox } from '../sandbox';
import { runNode, toolOf } from '../harness';
import { clickRoute, credentialsFor, routeFromRows, runAgainst } from './helpers';

// Options › Dry Run: every item goes through what a real run does but the sending, and its output
// is the request it would send. Run through n8n-core's engine against the sandbox, which would log
// (and count) anything that reached it.

let sandbox: Sandbox;
let api: ApiClient;
beforeAll(async () => {
	sandbox = await startSandbox({ repeatActions: true });
	api = apiClient(sandbox);
});
afterAll(async () => await sandbox.close());

const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
const dry = (parameters: INodeParameters): INodeParameters => ({
	...parameters,
	options: { ...(parameters.options as IDataObject), dryRun: true },
});
const sentOf = (request: RequestLogEntry) => ({
	method: request.method,
	path: request.path,
	query: request.query,
	body: JSON.stringify(request.body),
	key: request.headers['idempotency-key'],
});
const previewOf = (json: IDataObject) => {
	const url = new URL(json.url as string);
	return {
		method: json.method,
		path: url.pathname.replace(/^\/api\/v1/, ''),
		query: Object.fromEntries(url.searchParams),
		body: json.body === undefined ? undefined : JSON.stringify(json.body),
		key: (json.headers as IDataObject)['Idempotency-Key'],
	};
};

/** Quote › Create, the route mapped from each row by expressions. */
const quoteFromRows: INodeParameters = {
	resource: 'quote',
	operation: 'create',
	...routeFromRows,
};
const rows: IDataObject[] = [
	clickRoute,
	{ ...clickRoute, pickupLatitude: 123 },
	{ ...clickRoute, dropoffAddress: '9 Marina Road, Lagos Island' },
];

// First in the file: nothing has used the sandbox's key in this process yet.
describe('a dry run leaves nothing behind', () => {
	test('no pacing learned, no key marked used, no refusal remembered, no static data written', async () => {
		const quote = (await api.post('/partner-api/booking-quotes', route)).body as IDataObject;
		const book = { resource: 'booking', operation: 'create' };
		const input = [{ ...quote, quotedRoute: route }];
		const before = processMemorySizes();
		const preview = await runNode(dry(book), { credentials: credentialsFor(sandbox), input });
		expect(preview.output()[0].json).toMatchObject({ dryRun: true, method: 'POST' });
		expect(processMemorySizes()).toEqual(before);
		expect(preview.staticData.changed).toBe(false);
		const contexts = preview.run.data.executionData?.contextData ?? {};
		expect(JSON.stringify(contexts)).not.toContain('partnerLogisticsIdempotency');

		// A real run afterwards: as if the dry run never happened, booked once, under the key shown.
		sandbox.clearLog();
		const real = await runNode(book, { credentials: credentialsFor(sandbox), input });
		expect(real.error()?.message).toBeUndefined();
		expect(real.output()[0].json.bookingId).toEqual(expect.any(String));
		const [sent] = sandbox.requests();
		expect(sent.headers['idempotency-key']).toBe(preview.output()[0].json.idempotencyKey);
	});
});

describe('a dry run sends nothing and outputs each request', () => {
	test('quotes mapped from rows: the previews are what the real run then sends, byte for byte', async () => {
		// One node of one workflow, previewed, then run for real.
		const node = { id: 'quote-node', settings: { onError: 'continueRegularOutput' as const } };
		const preview = await runAgainst(sandbox, dry(quoteFromRows), { input: rows, ...node });
		expect(preview.requests).toEqual([]);
		const real = await runAgainst(sandbox, quoteFromRows, { input: rows, ...node });
		expect(real.requests).toHaveLength(2);

		// The bad row fails with the same words in both, and is paired with its input.
		expect(preview.items[1].error).toBe(real.items[1].error);
		expect(preview.items[1].error).toMatch(/^Item 2: Pickup Latitude \(pickupLatitude\)/);
		expect(preview.result.output().map((item) => item.pairedItem)).toEqual(
			[0, 1, 2].map((item) => ({ item })),
		);

		const previews = [preview.items[0], preview.items[2]];
		for (const json of previews) {
			expect(json).toMatchObject({ dryRun: true, method: 'POST' });
			expect(json.url).toBe(`${sandbox.url}/partner-api/booking-quotes`);
			expect(json.headers).toEqual({
				Accept: 'application/json',
				'Content-Type': 'application/json',
				'Idempotency-Key': json.idempotencyKey,
				'X-SVC-API-Key': '[redacted]',
			});
			expect(json.idempotencyKeyMadeOf).toMatch(
				/^these input items and item \d: a real run sends this key, and so does its Retry$/,
			);
		}
		expect(JSON.stringify(preview.items)).not.toContain(sandbox.keys.full);
		// A creation's key is made of the run's input: the real run sends the previewed keys.
		expect(real.requests.map(sentOf)).toEqual(previews.map(previewOf));
	});

	test('bookings and payments: the same Idempotency-Key as the real run, and what it is made of', async () => {
		const quotes = await Promise.all(
			[1, 2].map(async () => (await api.post('/partner-api/booking-quotes', route)).body),
		);
		const book: INodeParameters = {
			resource: 'booking',
			operation: 'create',
			quoteId: '={{ $json.quoteId }}',
			routeSource: 'inputFields',
		};
		const input = quotes.map((quote) => ({ ...route, quoteId: quote.quoteId }));
		const preview = await runAgainst(sandbox, dry(book), { input });
		expect(preview.requests).toEqual([]);
		expect(preview.items.map((json) => json.idempotencyKeyMadeOf)).toEqual(
			quotes.map(
				({ quoteId }) =>
					`the API, this action and Quote ID ${quoteId}: the same in every execution`,
			),
		);
		const real = await runAgainst(sandbox, book, { input });
		expect(real.items.map((json) => typeof json.bookingId)).toEqual(['string', 'string']);
		expect(real.requests.map(sentOf)).toEqual(preview.items.map(previewOf));

		const bookingId = real.items[0].bookingId as string;
		const pay = {
			resource: 'booking',
			operation: 'pay',
			bookingId,
			paymentMethodId: sandbox.savedCards.enabled,
		};
		const payPreview = await runAgainst(sandbox, dry(pay));
		expect(payPreview.requests).toEqual([]);
		expect(payPreview.items[0]).toMatchObject({
			method: 'POST',
			url: `${sandbox.url}/partner-api/bookings/${bookingId}/payment`,
			idempotencyKeyMadeOf: `the API, this action and Booking ID ${bookingId}: the same in every execution`,
		});
		const paid = await runAgainst(sandbox, pay);
		expect(paid.requests.map(sentOf)).toEqual(payPreview.items.map(previewOf));
	});

	test('a key of the user’s own is shown as such', async () => {
		const { items, requests } = await runAgainst(
			sandbox,
			dry({
				...quoteFromRows,
				options: { idempotencyKey: '={{ "order-" + $json.pickupAddress.length }}' },
			}),
			{ input: [clickRoute] },
		);
		expect(requests).toEqual([]);
		expect(items[0]).toMatchObject({
			idempotencyKey: `order-${clickRoute.pickupAddress.length}`,
			idempotencyKeyMadeOf: 'Options › Idempotency Key',
		});
	});

	test('reads are previewed too: the URL with its query, no body, no key', async () => {
		const { items, requests } = await runAgainst(
			sandbox,
			dry({ resource: 'supportCase', operation: 'getAll', returnAll: false, limit: 5 }),
		);
		expect(requests).toEqual([]);
		expect(items).toEqual([
			{
				dryRun: true,
				method: 'GET',
				url: expect.stringMatching(/\/partner-api\/support-cases\?(.+&)?limit=5/),
				headers: {
					Accept: 'application/json',
					'Content-Type': 'application/json',
					'X-SVC-API-Key': '[redacted]',
				},
			},
		]);
	});
});

describe('a dry run as an AI tool', () => {
	test('the tool answers with the preview, and nothing is sent', async () => {
		sandbox.clearLog();
		const tool = toolOf(dry({ resource: 'hub', operation: 'getAll' }), {
			credentials: credentialsFor(sandbox),
		});
		const answer = JSON.parse(await tool.invoke({})) as IDataObject[];
		expect(answer).toEqual([
			expect.objectContaining({
				dryRun: true,
				method: 'GET',
				url: `${sandbox.url}/partner-api/hubs`,
			}),
		]);
		expect(sandbox.requests()).toEqual([]);
	});
});
