import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { lastSeq, type LoggedRequest, sandboxRequests } from './assertions';
import { waitFor } from './http';
import type { SandboxAdmin } from './sandbox';

// The official MCP SDK client over Streamable HTTP, as Claude Desktop or the MCP Inspector would
// call an n8n MCP Server Trigger: one session per spec, each call read with the partner requests
// it made.

export interface ToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

export interface McpSession {
	client: Client;
	/** Calls a tool: its result and the partner requests made meanwhile. */
	call(
		name: string,
		args: Record<string, unknown>,
	): Promise<{ result: ToolResult; requests: LoggedRequest[] }>;
	close(): Promise<void>;
}

/** Connects to the server at `url`, retrying while its just-published webhook registers. */
export async function connectMcp(url: string, admin: SandboxAdmin): Promise<McpSession> {
	return await waitFor(
		`the MCP server at ${url}`,
		async () => {
			const client = new Client({ name: 'partner-logistics-e2e', version: '1.0.0' });
			const transport = new StreamableHTTPClientTransport(new URL(url));
			await client.connect(transport);
			return {
				client,
				async call(name: string, args: Record<string, unknown>) {
					const since = await lastSeq(admin);
					const result = (await client.callTool({ name, arguments: args })) as ToolResult;
					return { result, requests: await sandboxRequests(admin, since) };
				},
				async close() {
					await transport.terminateSession().catch(() => undefined);
					await client.close();
				},
			};
		},
		{ timeoutMs: 30_000, intervalMs: 500 },
	);
}
