import { derivedKey, lastSeq, type LoggedRequest, sandboxRequests } from '../lib/assertions';
import { CLICK_ROUTE as route, mcpServerUrl, WORKFLOW_IDS } from '../lib/fixtures';
import { sleep, waitFor } from '../lib/http';
import { connectMcp, type McpSession, type ToolResult } from '../lib/mcp';
import { nodeOutput } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// The MCP sample (workflows/14-mcp-tools.json): an active MCP Server Trigger serving three
// Partner Logistics tools, called by the official MCP SDK client over Streamable HTTP, as Claude
// Desktop or the MCP Inspector would. Each call must run the node's one pipeline: the same checks,
// key header and Idempotency-Key as a workflow run.
const suite = loadSuite();
const url = mcpServerUrl(suite.n8nBaseUrl);

const TOOLS = {
	hubs: 'List_hubs',
	quote: 'Quote_a_delivery',
	book: 'Book_a_quoted_delivery',
};

const routeTypes = {
	pickupAddress: 'string',
	pickupLatitude: 'number',
	pickupLongitude: 'number',
	dropoffAddress: 'string',
	dropoffLatitude: 'number',
	dropoffLongitude: 'number',
};

/** The text of a tool result (n8n answers with one text part). */
function textOf(result: ToolResult): string {
	expect(result.content).toHaveLength(1);
	expect(result.content[0].type).toBe('text');
	return result.content[0].text ?? '';
}

let mcp: McpSession;
/** The sandbox's last request before this spec, and every tool call made since. */
let firstSeq = 0;
const calls: Array<{ name: string; isError: boolean; requests: number }> = [];

/** Calls a tool and returns its result with the partner requests the call made. */
async function call(
	name: string,
	args: Record<string, unknown>,
): Promise<{ result: ToolResult; requests: LoggedRequest[] }> {
	const { result, requests } = await mcp.call(name, args);
	calls.push({ name, isError: result.isError === true, requests: requests.length });
	return { result, requests };
}

describe('Partner Logistics as MCP tools (MCP Server Trigger, Streamable HTTP)', () => {
	beforeAll(async () => {
		firstSeq = await lastSeq(suite.admin);
		mcp = await connectMcp(url, suite.admin);
	});

	afterAll(async () => await mcp?.close());

	it('serves the three tools with their manual descriptions and the server instructions', async () => {
		const { tools } = await mcp.client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(Object.values(TOOLS).sort());
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(byName[TOOLS.hubs].description).toMatch(/^Lists the active Partner Logistics hubs/);
		expect(byName[TOOLS.quote].description).toMatch(/^Prices a CLICK home-to-home/);
		expect(byName[TOOLS.book].description).toContain('Needs the quoteId');
		expect(mcp.client.getInstructions()).toContain('Quote_a_delivery');
		// List hubs takes no input.
		expect(Object.keys(byName[TOOLS.hubs].inputSchema.properties ?? {})).toEqual([]);
	});

	it("gives the quote tool's input schema exactly the six route fields, typed, with bounds", async () => {
		const { tools } = await mcp.client.listTools();
		const schema = tools.find((tool) => tool.name === TOOLS.quote)!.inputSchema;
		const properties = schema.properties as Record<string, { type: string; description: string }>;
		expect(Object.keys(properties).sort()).toEqual(Object.keys(routeTypes).sort());
		for (const [field, type] of Object.entries(routeTypes)) {
			expect(properties[field].type).toBe(type);
		}
		expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(routeTypes).sort());
		expect(properties.pickupLatitude.description).toBe(
			'Latitude of the pickup in decimal degrees, -90 to 90',
		);
		expect(properties.dropoffLongitude.description).toBe(
			'Longitude of the drop-off in decimal degrees, -180 to 180',
		);

		const booking = tools.find((tool) => tool.name === TOOLS.book)!.inputSchema;
		expect(Object.keys(booking.properties ?? {}).sort()).toEqual(
			['quoteId', ...Object.keys(routeTypes)].sort(),
		);
	});

	it('lists the active hubs with one GET /partner-api/hubs carrying the API key', async () => {
		const { result, requests } = await call(TOOLS.hubs, {});
		expect(result.isError).toBeFalsy();
		const hubs = JSON.parse(textOf(result)) as Array<{ id: string }>;
		expect(hubs.map((hub) => hub.id).sort()).toEqual([...suite.sandbox.hubs.active].sort());
		expect(requests.map((request) => [request.method, request.path])).toEqual([
			['GET', '/partner-api/hubs'],
		]);
		expect(requests[0].headers['x-svc-api-key']).toBe(suite.sandbox.keys.full);
		expect(requests[0].headers['idempotency-key']).toBeUndefined();
	});

	describe('quote, then book the quote', () => {
		let quote: Record<string, unknown>;
		let quoteRequest: LoggedRequest;
		let firstBooking: { text: string; request: LoggedRequest };
		let secondQuote: Record<string, unknown>;

		it('quotes with exactly the values the agent gave, and an Idempotency-Key', async () => {
			const { result, requests } = await call(TOOLS.quote, route);
			expect(result.isError).toBeFalsy();
			const items = JSON.parse(textOf(result)) as Array<Record<string, unknown>>;
			expect(items).toHaveLength(1);
			quote = items[0];
			expect(quote).toMatchObject({ quoteId: expect.stringMatching(/^qt_/), ...route });

			expect(requests).toHaveLength(1);
			quoteRequest = requests[0];
			expect(quoteRequest).toMatchObject({
				method: 'POST',
				path: '/partner-api/booking-quotes',
				status: 201,
			});
			expect(quoteRequest.headers).toMatchObject({
				'content-type': 'application/json',
				'x-svc-api-key': suite.sandbox.keys.full,
				'idempotency-key': derivedKey('quote.create'),
			});
			// CLICK is the form's default service type: the node sends it, nothing else is added.
			expect(quoteRequest.body).toEqual({ serviceType: 'CLICK', ...route });
		});

		it('books that quote with the same route', async () => {
			const { result, requests } = await call(TOOLS.book, { quoteId: quote.quoteId, ...route });
			expect(result.isError).toBeFalsy();
			const [booking] = JSON.parse(textOf(result)) as Array<Record<string, unknown>>;
			expect(booking).toMatchObject({
				bookingId: expect.stringMatching(/^bk_/),
				quoteId: quote.quoteId,
			});

			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({
				method: 'POST',
				path: '/partner-api/bookings',
				status: 201,
			});
			expect(requests[0].headers).toMatchObject({
				'x-svc-api-key': suite.sandbox.keys.full,
				'idempotency-key': derivedKey('booking.create'),
			});
			expect(requests[0].body).toEqual({ serviceType: 'CLICK', ...route, quoteId: quote.quoteId });
			const bookings = (await suite.admin.stateOfOrgA()).bookings;
			expect(bookings.filter((stored) => stored.bookingId === booking.bookingId)).toHaveLength(1);
			firstBooking = { text: textOf(result), request: requests[0] };
		});

		// Models repeat a tool call. Booking › Create is keyed by the quote it books, not by the
		// call: the repeat reaches the API under the same key and gets its first answer.
		it('answers a repeated call to book the same quote with the same booking, booking once', async () => {
			const { result, requests } = await call(TOOLS.book, { quoteId: quote.quoteId, ...route });
			expect(result.isError).toBeFalsy();
			expect(textOf(result)).toBe(firstBooking.text);
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ status: 201, replayed: true });
			expect(requests[0].headers['idempotency-key']).toBe(
				firstBooking.request.headers['idempotency-key'],
			);
			const bookings = (await suite.admin.stateOfOrgA()).bookings;
			expect(bookings.filter((stored) => stored.quoteId === quote.quoteId)).toHaveLength(1);
		});

		// n8n's MCP server runs a tool call in its webhook handler, outside any execution (no
		// execution id), and builds the tool afresh for every POST (run index 0): a key derived from
		// those alone would be the same on every call, so the sandbox would answer 409 to other
		// arguments and replay the first quote for the same ones.
		it('sends a second call with other arguments as a new request, with a fresh key', async () => {
			const { result, requests } = await call(TOOLS.quote, {
				...route,
				dropoffAddress: '1 Marina, Lagos Island',
			});
			expect(requests).toHaveLength(1);
			expect(requests[0].headers['idempotency-key']).toEqual(derivedKey('quote.create'));
			expect(requests[0].headers['idempotency-key']).not.toBe(
				quoteRequest.headers['idempotency-key'],
			);
			expect(result.isError).toBeFalsy();
		});

		it('sends a second call with the same arguments as a new request, not a replay', async () => {
			const { result, requests } = await call(TOOLS.quote, route);
			expect(requests).toHaveLength(1);
			expect(requests[0].replayed).toBeFalsy();
			expect(requests[0].headers['idempotency-key']).not.toBe(
				quoteRequest.headers['idempotency-key'],
			);
			const [again] = JSON.parse(textOf(result)) as Array<Record<string, unknown>>;
			expect(again.quoteId).not.toBe(quote.quoteId);
			secondQuote = again;
		});

		it('books that second quote of the same route as a second booking, under its own key', async () => {
			const { result, requests } = await call(TOOLS.book, {
				quoteId: secondQuote.quoteId,
				...route,
			});
			expect(result.isError).toBeFalsy();
			const [booking] = JSON.parse(textOf(result)) as Array<Record<string, unknown>>;
			expect(booking.quoteId).toBe(secondQuote.quoteId);
			expect(JSON.stringify(booking)).not.toBe(firstBooking.text);
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ status: 201 });
			expect(requests[0].replayed).toBeFalsy();
			expect(requests[0].headers['idempotency-key']).not.toBe(
				firstBooking.request.headers['idempotency-key'],
			);
		});
	});

	it('returns a refused input to the agent naming the field, with nothing sent', async () => {
		const { result, requests } = await call(TOOLS.quote, { ...route, pickupLatitude: 95 });
		expect(result.isError).toBe(true);
		const text = textOf(result);
		// n8n's MCP server answers a thrown error as `<name>: <message>`; n8n adds the description.
		expect(text).toMatch(
			/^NodeOperationError: .*Pickup Latitude \(pickupLatitude\) must be a number between .90 and 90, got 95\n\nDetails: Nothing was sent/,
		);
		expect(requests).toEqual([]);
	});

	// Measured in n8n 2.41.1: each tool call (not initialize, not tools/list) starts one execution
	// of the workflow, after the call has run: mode "webhook", the trigger's output naming the tool
	// and its arguments, and the tool node's run (its answer, or its error) copied in. The
	// execution sends nothing itself. A refused call's execution still ends "success"; only the tool
	// node's run is marked "error".
	it('leaves one execution per tool call in the Executions list, and no further request', async () => {
		// Runs last: every call above (a failed one too) is counted.
		expect(calls.map((made) => made.name)).toEqual([
			TOOLS.hubs,
			TOOLS.quote,
			TOOLS.book,
			TOOLS.book,
			TOOLS.quote,
			TOOLS.quote,
			TOOLS.book,
			TOOLS.quote,
		]);
		const executions = await waitFor(`${calls.length} executions`, async () => {
			const list = await suite.client.executions(WORKFLOW_IDS.mcpTools);
			return list.length >= calls.length && list.every((execution) => execution.stoppedAt)
				? list
				: undefined;
		});
		await sleep(1000);
		expect(await suite.client.executions(WORKFLOW_IDS.mcpTools)).toHaveLength(calls.length);

		const seen = executions
			.sort((a, b) => Number(a.id) - Number(b.id))
			.map((execution) => {
				expect(execution.mode).toBe('webhook');
				expect(execution.status).toBe('success');
				const [trigger] = nodeOutput(execution, 'MCP Server Trigger');
				const toolCall = trigger.mcpToolCall as { toolName: string; sourceNodeName: string };
				const toolRun = execution.data!.resultData.runData[toolCall.sourceNodeName][0];
				return [toolCall.toolName, toolRun.executionStatus];
			});
		expect(seen).toEqual(calls.map((made) => [made.name, made.isError ? 'error' : 'success']));
		// Every call made exactly the requests counted above; the executions made none.
		expect(await sandboxRequests(suite.admin, firstSeq)).toHaveLength(
			calls.reduce((sum, made) => sum + made.requests, 0),
		);
	});
});
