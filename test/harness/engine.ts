import { randomUUID } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	NodeConnectionType,
} from 'n8n-workflow';
import { createRunExecutionData, NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import {
	CredentialTestContext,
	DirectoryLoader,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';

import { HarnessCredentialsHelper } from './credentials';
import { PartnerLogisticsApi } from '../../credentials/PartnerLogisticsApi.credentials';
import { PartnerLogistics } from '../../nodes/PartnerLogistics/PartnerLogistics.node';

/** The package name n8n prefixes our node types with once the package is installed. */
export const PACKAGE = 'n8n-nodes-partner-logistics';
export const CREDENTIAL = 'partnerLogisticsApi';

/** As n8n's loader prepares a node (it adds Request Options to nodes without `execute`). */
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

export const nodeTypes: INodeTypes = {
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
	/**
	 * Node settings as n8n stores them on the node: retryOnFail, maxTries, waitBetweenTries, onError;
	 * rewireOutputLogTo as n8n sets it when the AI Agent (v3) runs the node as its tool.
	 */
	settings?: Pick<
		INode,
		'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError' | 'rewireOutputLogTo'
	>;
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
	/**
	 * Runs as n8n's Retry of this failed execution (ExecutionService.retry): its saved data, a JSON
	 * copy as from the database, without its error and the failed node's last run, on `nodes`
	 * (give them the ids they had; other parameters are a retry "with currently saved workflow").
	 */
	retryOf?: IRun;
	/**
	 * The workflow's static data as n8n loads it from its database at the start of an execution
	 * (a JSON copy of what an earlier run left); empty by default. The run's is in RunResult.
	 */
	staticData?: IDataObject;
}

export interface RunResult {
	run: IRun;
	/** When the execution was cancelled (Date.now()), with `cancelAfterMs`: a timer may fire late. */
	cancelledAt?: number;
	/** Output items of a node (the last node by default), first run, main output 0. */
	output(nodeName?: string): INodeExecutionData[];
	/** The error a node stopped with, if any. */
	error(nodeName?: string): Error | undefined;
	/** Every node's run count: a Retry On Fail re-run stays one run with several tries. */
	nodeNames: string[];
	/** The workflow's static data after the run, and whether n8n would save it (it changed). */
	staticData: { data: IDataObject; changed: boolean };
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
		staticData: options.staticData && JSON.parse(JSON.stringify(options.staticData)),
	});

	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let resolveFinished: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => resolveFinished(run));

	const additionalData = baseAdditionalData(options.credentials, executionId);
	additionalData.hooks = hooks;

	const input = (options.input ?? [{}]).map((json) => ({ json }));
	const runExecutionData = options.retryOf
		? retryData(options.retryOf, workflow)
		: createRunExecutionData({
				executionData: {
					nodeExecutionStack: [{ node: nodes[0], data: { main: [input] }, source: null }],
				},
			});

	const mode = options.retryOf ? 'retry' : 'manual';
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	const running = workflowExecute.processRunExecutionData(workflow);
	// Like the editor's Stop button: n8n aborts the execution's cancel signal.
	let cancelledAt: number | undefined;
	const cancel =
		options.cancelAfterMs === undefined
			? undefined
			: setTimeout(() => {
					cancelledAt = Date.now();
					running.cancel();
				}, options.cancelAfterMs);
	await running.catch(() => undefined);
	clearTimeout(cancel);
	const run = await finished;

	const last = nodes[nodes.length - 1].name;
	const task = (name = last) => run.data.resultData.runData[name]?.[0];
	return {
		run,
		cancelledAt,
		nodeNames: nodes.map((node) => node.name),
		output: (name) => task(name)?.data?.[NodeConnectionTypes.Main as NodeConnectionType]?.[0] ?? [],
		error: (name) => task(name)?.error as Error | undefined,
		staticData: {
			data: JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
			changed: workflow.staticData.__dataChanged === true,
		},
	};
}

/** What n8n's ExecutionService.retry (packages/cli, 2.41) hands its WorkflowRunner. */
function retryData(failed: IRun, workflow: Workflow): IRunExecutionData {
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData[lastNodeExecuted];
		if (runs?.length && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	for (const stack of data.executionData!.nodeExecutionStack) {
		stack.node = workflow.getNode(stack.node.name)!;
	}
	return data;
}

/** Runs one Partner Logistics node on the given items. */
export async function runNode(
	parameters: INodeParameters,
	options: Omit<RunOptions, 'nodes'> & Pick<HarnessNode, 'id' | 'settings'>,
): Promise<RunResult> {
	const { id, settings } = options;
	return await runWorkflow({ ...options, nodes: [{ id, parameters, settings }] });
}

/**
 * Tests a credential the way n8n's CredentialsTester (packages/cli) does for a credential without
 * a `test` request: it finds the node that names a test function (`testedBy`) and calls that
 * function from the node's `methods.credentialTest` in n8n-core's CredentialTestContext.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const nodeType = lookup(`${PACKAGE}.partnerLogistics`);
	const testedBy = nodeType.description.credentials?.find(
		(credential) => credential.name === CREDENTIAL,
	)?.testedBy;
	if (credentialTypes[CREDENTIAL].test || typeof testedBy !== 'string') {
		throw new Error("n8n would not run the node's credential test for this credential");
	}
	const test = nodeType.methods?.credentialTest?.[testedBy];
	if (!test) throw new Error(`The node names ${testedBy} but has no such credentialTest method`);
	const context = new CredentialTestContext(baseAdditionalData(data, 'credential-test'));
	return await test.call(context, { id: 'cred-1', name: 'test', type: CREDENTIAL, data });
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

/** What n8n hands a node besides its data; `executionId` undefined: outside any execution. */
export function baseAdditionalData(
	credentials: ICredentialDataDecryptedObject,
	executionId: string | undefined,
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
