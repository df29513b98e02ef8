import { randomUUID } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	NodeConnectionType,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import {
	DirectoryLoader,
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';

import { HarnessCredentialsHelper } from './credentials';
import { PartnerLogisticsApi } from '../../credentials/PartnerLogisticsApi.credentials';
import { PartnerLogistics } from '../../nodes/PartnerLogistics/PartnerLogistics.node';

/** The package name n8n prefixes our node types with once the package is installed. */
export const PACKAGE = 'n8n-nodes-partner-logistics';
export const CREDENTIAL = 'partnerLogisticsApi';

/** As n8n's loader prepares it: a node without `execute` gets n8n's Request Options setting. */
function loaded<T extends INodeType>(nodeType: T): T {
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	return nodeType;
}

const nodeTypeRegistry: Record<string, INodeType> = {
	[`${PACKAGE}.partnerLogistics`]: loaded(new PartnerLogistics()),
};
const credentialTypes: Record<string, ICredentialType> = {
	[CREDENTIAL]: new PartnerLogisticsApi(),
};

/** Lets a test or benchmark add a node type of its own (e.g. a plain-HTTP baseline node). */
export function registerNodeType(name: string, type: INodeType) {
	nodeTypeRegistry[name] = type;
}

const nodeTypes: INodeTypes = {
	getByName: (name) => lookup(name),
	getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(lookup(name), version),
	getKnownTypes: () => ({}),
};

function lookup(name: string): INodeType {
	const type = nodeTypeRegistry[name];
	if (!type) throw new Error(`Unknown node type ${name}`);
	return type;
}

export interface HarnessNode {
	name?: string;
	/** Short type name ('partnerLogistics') or a full one registered with registerNodeType. */
	type?: string;
	parameters: INodeParameters;
	/** Node settings as n8n stores them on the node: retryOnFail, maxTries, waitBetweenTries, onError. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError'>;
	id?: string;
}

export interface RunOptions {
	/** Nodes run in a chain, each feeding the next. */
	nodes: HarnessNode[];
	/** JSON of the items the first node receives; one empty item by default. */
	input?: IDataObject[];
	credentials: ICredentialDataDecryptedObject;
	executionId?: string;
	/** Cancel the execution this long after it starts, as the editor's Stop button does. */
	cancelAfterMs?: number;
}

export interface RunResult {
	run: IRun;
	/** Output items of a node (the last node by default), first run, main output 0. */
	output(nodeName?: string): INodeExecutionData[];
	/** The error a node stopped with, if any. */
	error(nodeName?: string): Error | undefined;
	/** Every node's run count: a Retry On Fail re-run stays one run with several tries. */
	nodeNames: string[];
}

/**
 * Runs nodes through n8n-core's WorkflowExecute, the engine n8n itself uses, the way n8n's own
 * NodeTestHarness does (packages/core/nodes-testing), with our credential applied by
 * HarnessCredentialsHelper. Requests go over real HTTP to wherever the credential points.
 */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const executionId = options.executionId ?? randomUUID();
	const nodes: INode[] = options.nodes.map((node, index) => ({
		id: node.id ?? randomUUID(),
		name: node.name ?? `Node ${index + 1}`,
		type: fullType(node.type ?? 'partnerLogistics'),
		typeVersion: 1,
		position: [index * 200, 0],
		parameters: node.parameters,
		credentials: { [CREDENTIAL]: { id: 'cred-1', name: 'Partner Logistics (sandbox)' } },
		...node.settings,
	}));
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, index) => [
				node.name,
				{ main: [[{ node: nodes[index + 1].name, type: NodeConnectionTypes.Main, index: 0 }]] },
			]),
	);
	const workflowData: IWorkflowBase = {
		id: 'wf-harness',
		name: 'harness',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: workflowData.settings,
	});

	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let resolveFinished: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveFinished(run));

	const additionalData = baseAdditionalData(options.credentials, executionId);
	additionalData.hooks = hooks;

	const input = (options.input ?? [{}]).map((json) => ({ json }));
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: nodes[0], data: { main: [input] }, source: null }],
		},
	});

	const workflowExecute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	const running = workflowExecute.processRunExecutionData(workflow);
	// Like the editor's Stop button: n8n aborts the execution's cancel signal.
	const cancel =
		options.cancelAfterMs === undefined
			? undefined
			: setTimeout(() => running.cancel(), options.cancelAfterMs);
	await running.catch(() => undefined);
	clearTimeout(cancel);
	const run = await finished;

	const last = nodes[nodes.length - 1].name;
	const task = (name = last) => run.data.resultData.runData[name]?.[0];
	return {
		run,
		nodeNames: nodes.map((node) => node.name),
		output: (name) => task(name)?.data?.[NodeConnectionTypes.Main as NodeConnectionType]?.[0] ?? [],
		error: (name) => task(name)?.error as Error | undefined,
	};
}

/** Runs one Partner Logistics node on the given items. */
export async function runNode(
	parameters: INodeParameters,
	options: Omit<RunOptions, 'nodes'> & { settings?: HarnessNode['settings'] },
): Promise<RunResult> {
	return await runWorkflow({ ...options, nodes: [{ parameters, settings: options.settings }] });
}

/**
 * Tests a credential the way n8n's CredentialsTester (packages/cli) does for a credential with a
 * `test` request: it runs the request through n8n-core's RoutingNode and maps a failed response
 * through the credential's `rules`.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const credentialType = credentialTypes[CREDENTIAL];
	const testRequest = credentialType.test!;
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: CREDENTIAL, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL]: { id: 'cred-1', name: 'test' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: { ...nodeTypes, getByNameAndVersion: () => nodeType, getByName: () => nodeType },
	});
	const additionalData = baseAdditionalData(data, 'credential-test');
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, nodeType, {
		id: 'cred-1',
		name: 'test',
		type: CREDENTIAL,
		data,
	});
	try {
		await routingNode.runNode();
	} catch (caught) {
		const error = caught as { cause?: { response?: { status: number; statusText?: string } } };
		const status = error.cause?.response?.status;
		if (status !== undefined) {
			const rule = testRequest.rules?.find(
				(r) => r.type === 'responseCode' && r.properties.value === status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message as string };
			return {
				status: 'Error',
				message: error.cause?.response?.statusText || `Received HTTP status code: ${status}`,
			};
		}
		return { status: 'Error', message: (caught as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/**
 * Calls one of the node's listSearch methods (a searchable dropdown) the way the editor does, in
 * n8n-core's LoadOptionsContext for a node with the given parameters.
 */
export async function listSearch(
	method: string,
	options: {
		credentials: ICredentialDataDecryptedObject;
		parameters?: INodeParameters;
		filter?: string;
	},
) {
	const nodeType = lookup(`${PACKAGE}.partnerLogistics`);
	const search = nodeType.methods?.listSearch?.[method];
	if (!search) throw new Error(`No listSearch method ${method}`);
	const node: INode = {
		id: 'list-search',
		name: 'Partner Logistics',
		type: `${PACKAGE}.partnerLogistics`,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: { [CREDENTIAL]: { id: 'cred-1', name: 'Partner Logistics (sandbox)' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = baseAdditionalData(options.credentials, 'list-search');
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await search.call(context, options.filter);
}

function fullType(type: string) {
	return type.includes('.') ? type : `${PACKAGE}.${type}`;
}

function baseAdditionalData(
	credentials: ICredentialDataDecryptedObject,
	executionId: string,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new HarnessCredentialsHelper(credentialTypes, { [CREDENTIAL]: credentials }),
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		userId: 'harness-user',
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of the harness');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not part of the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}
