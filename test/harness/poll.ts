import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
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
 * What n8n saves is kept here as JSON, as in its database; `restart` activates again from it.
 * `durable` runs the same node as n8n's durable scheduler with durable poll cursors does (see
 * DurablePolls). An imitation of n8n: the end-to-end suite (test/e2e/specs/polling*.e2e.ts) is
 * the authority.
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
	/** The same workflow under n8n's durable scheduler with durable poll cursors (see below). */
	durable: DurablePolls;
}

/**
 * n8n 2.41 with N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 * N8N_USE_WORKFLOW_PUBLICATION_SERVICE and N8N_POLLER_DURABLE_CURSORS_ENABLED (read in packages/cli
 * poll-trigger-task-handler, trigger-execution-context.factory getExecutePollFunctions,
 * workflow-execution.service runPolledWorkflow, poll-cursor.service):
 *
 * - Each Poll Time is a task. A task reads the trigger's committed cursor when it starts
 *   (`execute` -> pollBackoffService.getState); the poll's node static data is a copy of it.
 * - A poll that returns null commits its copy at once if it changed (cursor only).
 * - A poll that emits commits its copy later, in the transaction that creates its execution
 *   (`commitEmitted`); should it lose its lease first, neither happens (`dropEmitted`).
 * - After a restart, the tasks of the Poll Times missed meanwhile start together.
 */
export interface DurablePolls {
	/** A task starts: it reads the committed cursor now, and polls when `run` is called. */
	startTask(): { run(): Promise<PollResult> };
	/** n8n commits the cursors of the polls that emitted, each with its execution, in order. */
	commitEmitted(): void;
	/** Those polls lost their lease: no cursor, no execution. */
	dropEmitted(): void;
	/** The committed cursor: the node's static data. */
	cursor(): IDataObject;
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

	/** n8n-core's PollContext of the node; its static data from `staged` when given (durable). */
	const contextOf = (
		workflow: Workflow,
		mode: 'trigger' | 'manual',
		activation: WorkflowActivateMode,
		staged?: () => IDataObject,
	) =>
		new PollContext(
			workflow,
			workflow.getNode(node.name)!,
			additionalData(),
			mode,
			activation,
			undefined,
			undefined,
			undefined,
			undefined,
			staged,
		);

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
		const context = contextOf(workflow, 'trigger', mode);
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

	let cursor: IDataObject = {};
	let emitted: Array<{ cursor: IDataObject; items: IDataObject[] }> = [];
	const copy = (data: IDataObject) => JSON.parse(JSON.stringify(data)) as IDataObject;
	const durable: DurablePolls = {
		startTask: () => {
			const prefetched = copy(cursor);
			return {
				run: async () => {
					const workflow = workflowFromSaved(true);
					const staged = copy(prefetched);
					const context = contextOf(workflow, 'trigger', 'update', () => staged);
					let items: IDataObject[] | null;
					try {
						items = await run(context);
					} catch (error) {
						failures.push(error as Error);
						return { items: null, error: error as Error };
					}
					const changed = !isDeepStrictEqual(staged, prefetched);
					if (items !== null) emitted.push({ cursor: copy(staged), items });
					else if (changed) cursor = copy(staged);
					return { items };
				},
			};
		},
		commitEmitted: () => {
			for (const poll of emitted) {
				cursor = poll.cursor;
				executions.push(poll.items);
			}
			emitted = [];
		},
		dropEmitted: () => {
			emitted = [];
		},
		cursor: () => copy(cursor),
	};

	return {
		durable,
		activate: async () => await activate('activate'),
		poll: async () => {
			if (!active) throw new Error('The workflow is not active');
			return await pollActive(false);
		},
		fetchTestEvent: async () => {
			const workflow = workflowFromSaved(false);
			const context = contextOf(workflow, 'manual', 'manual');
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
