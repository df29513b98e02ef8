import { randomUUID } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { PollContext } from 'n8n-core';

import { baseAdditionalData } from './engine';
import { PartnerLogisticsPollingTrigger } from '../../nodes/PartnerLogistics/PartnerLogisticsPollingTrigger.node';

/**
 * Runs the polling trigger's poll() in n8n-core's real PollContext, against whatever the credential
 * points at, the way n8n 2.41 runs a poll node of an active workflow (regular mode, no durable poll
 * cursors; read in packages/core active-workflow-triggers, poll-trigger-executor and packages/cli
 * trigger-execution-context.factory, workflow-static-data.service):
 *
 * - Activation (publishing, or n8n starting) builds the workflow from its saved data, creates one
 *   PollContext and polls once at once; a poll that throws there fails the activation. Afterwards
 *   n8n saves the workflow's static data if it changed.
 * - Each later poll uses the same PollContext and workflow. Items returned are emitted: n8n saves
 *   the static data (if changed), then starts an execution. A poll that throws is reported instead
 *   (n8n stores a failed execution and runs the error workflow); nothing is saved.
 * - A poll that returns null saves nothing: its static data changes stay in memory only.
 * - Fetch Test Event (manual mode) polls in a fresh PollContext on the saved workflow; n8n never
 *   saves a manual run's static data.
 *
 * What n8n saves is kept here as JSON, as in its database; `restart` activates again from it. An
 * imitation of n8n: the end-to-end suite (test/e2e/specs/polling-trigger.e2e.ts) is the authority.
 */

const TYPE = 'n8n-nodes-partner-logistics.partnerLogisticsPollingTrigger';
const trigger = new PartnerLogisticsPollingTrigger();
const nodeTypes: INodeTypes = {
	getByName: () => trigger,
	getByNameAndVersion: () => trigger,
	getKnownTypes: () => ({}),
};

export interface PollResult {
	/** Items the poll emitted (one execution), or null when it emitted nothing. */
	items: IDataObject[] | null;
	/** What the poll threw: n8n reports it as a failed execution (or a failed activation). */
	error?: Error & { description?: string };
}

export interface PollHarness {
	/** Publishing the workflow: the first poll, run by n8n at once. */
	activate(): Promise<PollResult>;
	/** A poll at one of the Poll Times of the active workflow. */
	poll(): Promise<PollResult>;
	/** The editor's Fetch Test Event. */
	fetchTestEvent(): Promise<PollResult>;
	/** n8n stops and starts again: the workflow is activated from what was saved. */
	restart(): Promise<PollResult>;
	/** The node's static data as n8n holds it in memory now (a JSON copy). */
	liveState(): IDataObject;
	/** The node's static data as n8n last saved it. */
	savedState(): IDataObject;
	/** Every execution started so far: the items of each. */
	executions: IDataObject[][];
	/** Every error reported by an active workflow's poll. */
	failures: Error[];
	/** Changes the node's parameters, as saving the workflow does; they apply from the next activation. */
	setParameters(parameters: INodeParameters): void;
}

export function startPollHarness(options: {
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	nodeName?: string;
}): PollHarness {
	const node: INode = {
		id: randomUUID(),
		name: options.nodeName ?? 'Partner Logistics Polling Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { partnerLogisticsApi: { id: 'cred-1', name: 'Partner Logistics' } },
	};
	let saved: IDataObject = {};
	const executions: IDataObject[][] = [];
	const failures: Error[] = [];
	const additionalData = (): IWorkflowExecuteAdditionalData =>
		baseAdditionalData(options.credentials, undefined);

	const workflowFromSaved = (active: boolean) =>
		new Workflow({
			id: 'wf-poll-harness',
			name: 'poll harness',
			nodes: [{ ...node }],
			connections: {},
			active,
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(saved)),
		});

	/** WorkflowStaticDataService.saveStaticData: only when something changed. */
	const save = (workflow: Workflow) => {
		if ((workflow.staticData as IDataObject).__dataChanged === true) {
			saved = JSON.parse(JSON.stringify(workflow.staticData));
			(workflow.staticData as IDataObject).__dataChanged = false;
		}
	};

	let active: { workflow: Workflow; context: PollContext } | undefined;

	const run = async (context: PollContext) => {
		const result = (await trigger.poll.call(context)) as INodeExecutionData[][] | null;
		return result === null ? null : result[0].map((item) => item.json);
	};

	/** PollTriggerExecutor: emit (save, then run) or report the error. */
	const pollActive = async (testingTrigger: boolean): Promise<PollResult> => {
		const { workflow, context } = active!;
		let items: IDataObject[] | null;
		try {
			items = await run(context);
		} catch (error) {
			if (testingTrigger) throw error;
			failures.push(error as Error);
			return { items: null, error: error as Error };
		}
		if (items !== null) {
			save(workflow);
			executions.push(items);
		}
		return { items };
	};

	const activate = async (mode: WorkflowActivateMode): Promise<PollResult> => {
		const workflow = workflowFromSaved(true);
		const context = new PollContext(
			workflow,
			workflow.getNode(node.name)!,
			additionalData(),
			'trigger',
			mode,
		);
		active = { workflow, context };
		try {
			const result = await pollActive(true);
			save(workflow);
			return result;
		} catch (error) {
			active = undefined;
			return { items: null, error: error as Error };
		}
	};

	const nodeState = (data: IDataObject) =>
		JSON.parse(JSON.stringify(data[`node:${node.name}`] ?? {})) as IDataObject;

	return {
		activate: async () => await activate('activate'),
		poll: async () => {
			if (!active) throw new Error('The workflow is not active');
			return await pollActive(false);
		},
		fetchTestEvent: async () => {
			const workflow = workflowFromSaved(false);
			const context = new PollContext(
				workflow,
				workflow.getNode(node.name)!,
				additionalData(),
				'manual',
				'manual',
			);
			try {
				return { items: await run(context) };
			} catch (error) {
				return { items: null, error: error as Error };
			}
		},
		restart: async () => {
			active = undefined;
			return await activate('init');
		},
		liveState: () => (active ? nodeState(active.workflow.staticData as IDataObject) : {}),
		savedState: () => nodeState(saved),
		executions,
		failures,
		setParameters: (parameters) => {
			node.parameters = parameters;
		},
	};
}
