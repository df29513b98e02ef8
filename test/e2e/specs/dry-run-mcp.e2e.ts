import { randomUUID } from 'node:crypto';

import { derivedKey, type LoggedRequest, postsTo } from '../lib/assertions';
import { postBatch, type Preview } from '../lib/dryRun';
import { CLICK_ROUTE as route, mcpPreviewUrl } from '../lib/fixtures';
import { expectOk } from '../lib/http';
import { connectMcp, type McpSession, type ToolResult } from '../lib/mcp';
import { loadSuite } from '../lib/suiteContext';

// Options › Dry Run on tools called by an AI agent: the preview tools sample
// (workflows/23-mcp-dry-run.json), an MCP Server Trigger whose two Partner Logistics tools have
// Dry Run on, called with the official MCP SDK over Streamable HTTP as mcp-tools.e2e.ts calls the
// sending tools. A call must answer with the preview and send nothing. Only the tool answers are
// read, which n8n 1.x and 2.x give alike (not the server's instructions, the wording of an error's
// name, or the executions a call leaves, where they differ: versions.json, mcp-tools.e2e.ts).
const suite = loadSuite();
const url = mcpPreviewUrl(suite.n8nBaseUrl);
const TOOLS = { quote: 'Preview_a_quote', book: 'Preview_a_booking' };

let mcp: McpSession;

/** Calls a tool: its answer's one text part, and the partner requests made meanwhile. */
async function call(
	name: string,
	args: Record<string, unknown>,
): Promise<{ result: ToolResult; text: string; requests: LoggedRequest[] }> {
	const { result, requests } = await mcp.call(name, args);
	expect(result.content.map((part) => part.type)).toEqual(['text']);
	return { result, text: result.content[0].text ?? '', requests };
}

/** A preview as a tool gives it: one item, the request with the key masked. */
function onlyPreview(text: string): Preview {
	const items = JSON.parse(text) as Preview[];
	expect(items).toHaveLength(1);
	expect(text).not.toContain(suite.sandbox.keys.full);
	return items[0];
}

describe('Dry Run on MCP tools (the preview tools sample, MCP Server Trigger)', () => {
	beforeAll(async () => {
		mcp = await connectMcp(url, suite.admin);
	});

	afterAll(async () => await mcp?.close());

	it('serves the two preview tools', async () => {
		const { tools } = await mcp.client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(Object.values(TOOLS).sort());
		const book = tools.find((tool) => tool.name === TOOLS.book)!;
		expect(Object.keys(book.inputSchema.properties ?? {}).sort()).toEqual(
			['quoteId', ...Object.keys(route)].sort(),
		);
	});

	it('answers a quote call with the request it would send, and sends nothing', async () => {
		const { result, text, requests } = await call(TOOLS.quote, route);
		expect(requests).toEqual([]);
		expect(result.isError).toBeFalsy();
		const preview = onlyPreview(text);
		expect(preview).toEqual({
			dryRun: true,
			method: 'POST',
			url: `${suite.sandbox.url}/partner-api/booking-quotes`,
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
				'Idempotency-Key': preview.idempotencyKey,
				'X-SVC-API-Key': '[redacted]',
			},
			body: { serviceType: 'CLICK', ...route },
			idempotencyKey: derivedKey('quote.create'),
			idempotencyKeyMadeOf: expect.stringMatching(/^these input items and item 1: /),
		});
	});

	it("answers a booking call with the booking request under the quote's own key, which a real booking then sends", async () => {
		// A quote made by the partner's own systems, outside n8n.
		const quote = (
			await expectOk<Record<string, unknown>>(
				'POST a quote',
				`${suite.sandbox.url}/partner-api/booking-quotes`,
				{
					headers: { 'x-svc-api-key': suite.sandbox.keys.full, 'idempotency-key': randomUUID() },
					body: { serviceType: 'CLICK', ...route },
				},
			)
		).body;
		const quoteId = String(quote.quoteId);
		const { result, text, requests } = await call(TOOLS.book, { quoteId, ...route });
		expect(requests).toEqual([]);
		expect(result.isError).toBeFalsy();
		const preview = onlyPreview(text);
		expect(preview).toMatchObject({
			dryRun: true,
			method: 'POST',
			url: `${suite.sandbox.url}/partner-api/bookings`,
			body: { serviceType: 'CLICK', ...route, quoteId },
			idempotencyKey: derivedKey('booking.create'),
			idempotencyKeyMadeOf: `the API, this action and Quote ID ${quoteId}: the same in every execution`,
		});
		expect((await suite.admin.stateOfOrgA()).bookings.filter((b) => b.quoteId === quoteId)).toEqual(
			[],
		);

		// Booked for real by a workflow (the Dry Run sample, from the quote as the API answered it).
		const real = await postBatch(suite, { dryRun: false, step: 'book', rows: [quote] });
		const [post] = postsTo(real.requests, /^\/partner-api\/bookings$/);
		expect(real.requests).toHaveLength(1);
		expect([post.status, post.headers['idempotency-key']]).toEqual([201, preview.idempotencyKey]);
		expect(`${suite.sandbox.url}${post.path}`).toBe(preview.url);
		expect(post.body).toMatchObject(preview.body!);
	});

	it('answers a refused input with the field and the rule, as a real call would, and sends nothing', async () => {
		const { result, text, requests } = await call(TOOLS.quote, { ...route, pickupLatitude: 95 });
		expect(requests).toEqual([]);
		expect(result.isError).toBe(true);
		expect(text).toContain('Pickup Latitude (pickupLatitude) must be a number between');
		expect(text).toContain('got 95');
		expect(text).toContain('Nothing was sent');
	});
});
