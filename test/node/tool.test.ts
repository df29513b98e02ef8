import { NodeConnectionTypes } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import { runNode, toolOf } from '../harness';
import { clickRoute, credentialsFor } from './helpers';

// The node as an AI Agent / MCP tool, built and called by n8n-core's own tool code: every call
// runs the same pipeline as a workflow run (validation, keys, pacing, retries, transport).

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.clearLog());
afterEach(() => sandbox.admin.setFaults({}));

const fromAi = (key: string, description: string, type: 'string' | 'number') =>
	`={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

/** Quote › Create with its six home-to-home fields left to the agent. */
const quoteTool = {
	resource: 'quote',
	operation: 'create',
	pickupAddress: fromAi('pickupAddress', 'Street address to collect the parcel from', 'string'),
	pickupLatitude: fromAi('pickupLatitude', 'Latitude of the pickup, -90 to 90', 'number'),
	pickupLongitude: fromAi('pickupLongitude', 'Longitude of the pickup, -180 to 180', 'number'),
	dropoffAddress: fromAi('dropoffAddress', 'Street address to deliver the parcel to', 'string'),
	dropoffLatitude: fromAi('dropoffLatitude', 'Latitude of the drop-off, -90 to 90', 'number'),
	dropoffLongitude: fromAi('dropoffLongitude', 'Longitude of the drop-off, -180 to 180', 'number'),
};
/** The six home-to-home fields of a valid CLICK route, as the agent gives them. */
const { serviceType, ...route } = clickRoute;

describe('Hub › Get Many as a tool', () => {
	test('lists the active hubs with one GET /partner-api/hubs', async () => {
		const tool = toolOf(
			{ resource: 'hub', operation: 'getAll' },
			{ credentials: credentialsFor(sandbox) },
		);
		expect(tool.description).toBe('Get many hubs in Partner Logistics');
		const hubs = JSON.parse(await tool.invoke({})) as Array<{ id: string }>;
		expect(hubs.map((hub) => hub.id).sort()).toEqual([...sandbox.hubs.active].sort());
		const requests = sandbox.requests();
		expect(requests.map((request) => [request.method, request.path])).toEqual([
			['GET', '/partner-api/hubs'],
		]);
		expect(requests[0].headers['x-svc-api-key']).toBe(sandbox.keys.full);
	});
});

describe('Quote › Create as a tool, its route from the agent', () => {
	test('its schema asks the agent for the six $fromAI fields', () => {
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox) });
		const shape = (tool.schema as { shape: Record<string, unknown> }).shape;
		expect(Object.keys(shape).sort()).toEqual(Object.keys(route).sort());
	});

	test('sends exactly the values the agent gave, with an Idempotency-Key', async () => {
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox), executionId: '41' });
		const [quote] = JSON.parse(await tool.invoke(route)) as Array<Record<string, unknown>>;
		expect(quote.quoteId).toEqual(expect.stringMatching(/^qt_/));
		const [request] = sandbox.requests();
		expect(request.path).toBe('/partner-api/booking-quotes');
		expect(request.body).toEqual({ serviceType, ...route });
		expect(request.headers['idempotency-key']).toMatch(/^n8n-quote\.create-[0-9a-f]{40}$/);
	});

	test('a latitude of 95 comes back to the agent naming the field, with nothing sent', async () => {
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox) });
		await expect(tool.invoke({ ...route, pickupLatitude: 95 })).rejects.toThrow(
			/Pickup Latitude \(pickupLatitude\) must be a number between .90 and 90, got 95[^]*Nothing was sent/,
		);
		expect(sandbox.requests()).toEqual([]);
	});

	test('a booking id of ".." comes back to the agent naming the field, with nothing sent', async () => {
		const tool = toolOf(
			{
				resource: 'booking',
				operation: 'pay',
				bookingId: fromAi('bookingId', 'The booking to pay', 'string'),
				paymentMethodId: 'pm_card_a_api',
			},
			{ credentials: credentialsFor(sandbox) },
		);
		await expect(tool.invoke({ bookingId: '..' })).rejects.toThrow(
			/Booking ID \(bookingId\) cannot be "\." or "\.\.": the request would reach another endpoint of the API, got "\.\."[^]*Nothing was sent/,
		);
		expect(sandbox.requests()).toEqual([]);
	});

	test('each call is its own request with its own key, in an execution or outside any', async () => {
		for (const executionId of ['77', undefined]) {
			sandbox.clearLog();
			const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox), executionId });
			await tool.invoke(route);
			await tool.invoke({ ...route, dropoffAddress: '1 Marina, Lagos Island' });
			const keys = sandbox.requests().map((request) => request.headers['idempotency-key']);
			expect(keys).toHaveLength(2);
			expect(new Set(keys).size).toBe(2);
		}
		// Two MCP calls (no execution) of two tools never share a key either.
		sandbox.clearLog();
		await toolOf(quoteTool, { credentials: credentialsFor(sandbox) }).invoke(route);
		await toolOf(quoteTool, { credentials: credentialsFor(sandbox) }).invoke(route);
		const keys = sandbox.requests().map((request) => request.headers['idempotency-key']);
		expect(new Set(keys).size).toBe(2);
	});

	test('a 429 is retried inside the call with the same key, as in a workflow run', async () => {
		sandbox.admin.setFaults({
			failNext: [{ status: 429, retryAfterSeconds: 0, path: '/partner-api/booking-quotes' }],
		});
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox) });
		const [quote] = JSON.parse(await tool.invoke(route)) as Array<Record<string, unknown>>;
		expect(quote.quoteId).toBeDefined();
		const requests = sandbox.requests();
		expect(requests.map((request) => request.status)).toEqual([429, 201]);
		expect(requests[1].headers['idempotency-key']).toBe(requests[0].headers['idempotency-key']);
	});

	test('a redirect is refused, and the API key never reaches the other host', async () => {
		sandbox.redirectTarget.clear();
		sandbox.admin.setFaults({ failNext: [{ kind: 'redirect', status: 307 }] });
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox) });
		await expect(tool.invoke(route)).rejects.toThrow(/redirect \(307\).*not followed/);
		expect(sandbox.redirectTarget.requests()).toEqual([]);
	});
});

describe('a tool call the API rate limits does not hold the agent', () => {
	const QUOTES = '/partner-api/booking-quotes';
	const tryAgain = /longer than the 5 s a tool call waits\. Try again after \d\d:\d\d:\d\d UTC\./;

	test('a Retry-After beyond 5 s: the agent is told at once when to try again', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 429, retryAfterSeconds: 30, path: QUOTES }] });
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox) });
		const started = Date.now();
		await expect(tool.invoke(route)).rejects.toThrow(/^The API asked to wait 30 s \(Retry-After\)/);
		await expect(
			toolOf(quoteTool, { credentials: credentialsFor(sandbox) }).invoke(route),
		).resolves.toBeDefined();
		expect(sandbox.requests().filter((request) => request.status === 429)).toHaveLength(1);
		expect(Date.now() - started).toBeLessThan(4000);
	});

	test('short waits are waited out within the call, 5 s in all at most', async () => {
		sandbox.admin.setFaults({
			failNext: [{ status: 429, times: 4, retryAfterSeconds: 2, path: QUOTES }],
		});
		const tool = toolOf(quoteTool, { credentials: credentialsFor(sandbox) });
		const started = Date.now();
		await expect(tool.invoke(route)).rejects.toThrow(tryAgain);
		const waited = Date.now() - started;
		expect(waited).toBeGreaterThanOrEqual(4000); // two waits of 2 s: a third would pass 5 s
		expect(waited).toBeLessThan(5500);
		expect(sandbox.requests().map((request) => request.status)).toEqual([429, 429, 429]);
	});

	test("the AI Agent's own tool runs (an execution's node, its output rewired to the agent) wait no longer", async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 429, retryAfterSeconds: 30, path: QUOTES }] });
		const started = Date.now();
		const { run } = await runNode(
			{ resource: 'quote', operation: 'create', ...clickRoute },
			{
				credentials: credentialsFor(sandbox),
				settings: { rewireOutputLogTo: NodeConnectionTypes.AiTool },
			},
		);
		expect(Date.now() - started).toBeLessThan(3000);
		const [task] = run.data.resultData.runData['Node 1'];
		const answer = task.data?.[NodeConnectionTypes.AiTool]?.[0]?.[0]?.json;
		expect(String(answer?.error)).toMatch(tryAgain);
	});
});
