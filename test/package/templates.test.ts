import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INode, INodeTypes, IWorkflowBase } from 'n8n-workflow';
import { isHitlToolType, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { nodeTypes, PACKAGE, toolOf } from '../harness';

// The template of docs/ai-agents.md (Money tools behind human review), which `npm run dev` also
// imports: its money tools reach the agent only through n8n's review, whose message shows the
// model's arguments, and the names the agent is told to call are the names n8n gives the tools.
// No spec runs it in n8n (it needs a chat model and an SMTP account); this reads it with n8n's own
// workflow, expression and tool code.
const file = join(__dirname, '../../docs/templates/money-tools-human-review.json');
const sample = JSON.parse(readFileSync(file, 'utf8')) as Pick<
	IWorkflowBase,
	'name' | 'nodes' | 'connections'
>;

const AGENT = '@n8n/n8n-nodes-langchain.agent';
const TOOL = `${PACKAGE}.partnerLogisticsTool`;
/** n8n's review of a tool call (2.41: the Send Email node's Human in the Loop tool). */
const REVIEW = 'n8n-nodes-base.emailSendHitlTool';

/**
 * The sample as n8n's Workflow holds it. The harness knows our node only; n8n's own node types
 * are not installed here, and a Workflow leaves a node of an unknown type as it is.
 */
const ours: INodeTypes = {
	...nodeTypes,
	getByNameAndVersion: (name, version) =>
		name === `${PACKAGE}.partnerLogistics`
			? nodeTypes.getByNameAndVersion(name, version)
			: (undefined as never),
};
const workflow = new Workflow({
	nodes: sample.nodes,
	connections: sample.connections,
	active: false,
	nodeTypes: ours,
});
const agent = sample.nodes.find((node) => node.type === AGENT)!;
/** The nodes connected straight into a node's Tool input. */
const toolsOf = (node: INode) =>
	workflow
		.getParentNodes(node.name, NodeConnectionTypes.AiTool, 1)
		.map((name) => workflow.getNode(name)!);
const operationOf = (node: INode) => `${node.parameters.resource}.${node.parameters.operation}`;
const moneyTools = sample.nodes.filter(
	(node) => node.type === TOOL && ['booking.create', 'booking.pay'].includes(operationOf(node)),
);

describe('docs/templates/money-tools-human-review.json', () => {
	test('has one agent, our tools in their tool variant, Book and Pay among them', () => {
		expect(sample.nodes.filter((node) => node.type === AGENT)).toHaveLength(1);
		expect(moneyTools.map(operationOf).sort()).toEqual(['booking.create', 'booking.pay']);
		for (const node of sample.nodes.filter((each) => each.type.startsWith(PACKAGE))) {
			expect(node.type).toBe(TOOL);
		}
	});

	test('each money tool reaches the agent only through its own review, Approve and Disapprove', () => {
		const direct = toolsOf(agent);
		for (const tool of moneyTools) {
			expect(direct.map((node) => node.name)).not.toContain(tool.name);
			const [review, ...more] = workflow
				.getChildNodes(tool.name, NodeConnectionTypes.AiTool, 1)
				.map((name) => workflow.getNode(name)!);
			expect(more).toEqual([]);
			expect(review.type).toBe(REVIEW);
			expect(isHitlToolType(review.type)).toBe(true);
			expect(toolsOf(review).map((node) => node.name)).toEqual([tool.name]);
			expect(direct.map((node) => node.name)).toContain(review.name);
			expect(review.parameters.approvalOptions).toEqual({ values: { approvalType: 'double' } });
		}
		// The quote costs nothing: the agent calls it directly.
		expect(direct.filter((node) => node.type === TOOL).map(operationOf)).toEqual(['quote.create']);
	});

	test("the review message shows the model's arguments, where n8n's default shows [object Object]", () => {
		const args = {
			tool: 'Pay_a_booking_with_the_saved_card',
			toolParameters: { bookingId: 'bk_14' },
		};
		const render = (message: string, review: INode) =>
			workflow.expression.getParameterValue(
				message,
				null,
				0,
				0,
				review.name,
				[{ json: args }],
				'manual',
				{},
			);
		for (const review of sample.nodes.filter((node) => node.type === REVIEW)) {
			expect(render(review.parameters.message as string, review)).toBe(
				'The agent wants to run Pay_a_booking_with_the_saved_card with:\n{"bookingId":"bk_14"}',
			);
			// n8n 2.41.1's default (n8n/dist/tool-generation/hitl-tools.js).
			const byDefault =
				'=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}';
			expect(render(byDefault, review)).toContain('Input:\n[object Object]');
		}
	});

	test('the agent is told the tool names n8n makes of the node names, and the review shows only $fromAI keys', () => {
		const systemMessage = (agent.parameters.options as { systemMessage: string }).systemMessage;
		const credentials = { baseUrl: 'http://127.0.0.1:9', apiKey: 'sbx_a_full_unused' };
		const tools = sample.nodes
			.filter((node) => node.type === TOOL)
			.map((node) => ({ node, tool: toolOf(node.parameters, { credentials, name: node.name }) }));
		for (const { tool } of tools) expect(systemMessage).toContain(tool.name);
		const keys = (node: INode) =>
			Object.keys(
				(tools.find((each) => each.node === node)!.tool.schema as { shape: object }).shape,
			).sort();
		const route = [
			'dropoffAddress',
			'dropoffLatitude',
			'dropoffLongitude',
			'pickupAddress',
			'pickupLatitude',
			'pickupLongitude',
		];
		const [book, pay] = ['booking.create', 'booking.pay'].map(
			(operation) => moneyTools.find((node) => operationOf(node) === operation)!,
		);
		expect(keys(book)).toEqual([...route, 'quoteId'].sort());
		// The saved card is typed into the node: the reviewer does not see it (docs/ai-agents.md).
		expect(pay.parameters.paymentMethodId).toEqual(expect.any(String));
		expect(keys(pay)).toEqual(['bookingId']);
	});
});
