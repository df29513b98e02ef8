import { randomUUID } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeParameters,
	IRunExecutionData,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { SupplyDataContext } from 'n8n-core';
// n8n-core's own tool building, as an AI Agent or the MCP Server Trigger use it (not re-exported).
import { createNodeAsTool } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import { makeHandleToolInvocation } from 'n8n-core/dist/execution-engine/node-execution-context/utils/get-input-connection-data';

import { baseAdditionalData, CREDENTIAL, nodeTypes, PACKAGE } from './engine';

export interface ToolOptions {
	credentials: ICredentialDataDecryptedObject;
	/**
	 * The execution the tool is called in: an AI Agent's. Undefined: outside any execution, as the
	 * MCP Server Trigger calls tools from n8n's webhook handler.
	 */
	executionId?: string;
	name?: string;
}

/** What an agent's tool call returns, and what n8n recorded of the tool node's runs. */
export interface HarnessTool {
	/** Calls the tool as an agent or MCP client would: arguments in, text out (or a thrown error). */
	invoke(args: Record<string, unknown>): Promise<string>;
	name: string;
	description: string;
	/** The JSON schema of the tool's arguments, built from the `$fromAI()` calls in `parameters`. */
	schema: unknown;
	runExecutionData: IRunExecutionData;
}

/**
 * The Partner Logistics node as an AI tool, built by n8n-core's createNodeAsTool and
 * makeHandleToolInvocation exactly as getInputConnectionData does for a node without
 * `supplyData`: each call runs the node's `execute` in a SupplyDataContext whose one input item is
 * the tool's arguments, and `$fromAI()` reads them.
 */
export function toolOf(parameters: INodeParameters, options: ToolOptions): HarnessTool {
	const node: INode = {
		id: randomUUID(),
		name: options.name ?? 'Partner Logistics Tool',
		type: `${PACKAGE}.partnerLogistics`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL]: { id: 'cred-1', name: 'Partner Logistics (sandbox)' } },
	};
	const agent: INode = { ...node, id: randomUUID(), name: 'AI Agent', parameters: {} };
	const workflow = new Workflow({
		id: 'wf-tool',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const toolNode = workflow.getNode(node.name)!;
	const nodeType = nodeTypes.getByNameAndVersion(toolNode.type, 1);
	const additionalData = baseAdditionalData(options.credentials, options.executionId);
	const runExecutionData = createRunExecutionData();
	const executeData = { node: agent, data: { main: [[{ json: {} }]] }, source: null };
	const context = (runIndex: number) =>
		new SupplyDataContext(
			workflow,
			toolNode,
			additionalData,
			'manual',
			runExecutionData,
			runIndex,
			[],
			{},
			NodeConnectionTypes.AiTool,
			executeData,
			[],
			undefined,
			agent,
		);
	const { response: tool } = createNodeAsTool({
		node: toolNode,
		nodeType,
		handleToolInvocation: makeHandleToolInvocation(context, toolNode, nodeType, runExecutionData),
		context: context(0),
		itemIndex: 0,
	});
	return {
		invoke: async (args) => (await tool.invoke(args)) as string,
		name: tool.name,
		description: tool.description,
		schema: tool.schema,
		runExecutionData,
	};
}
