import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PROCESS_MEMORY } from '../../shared/processMemory';
import {
	GenerationMemory,
	recordPlace,
	type GenerationPlace,
	type Generations,
} from './generations';
import { RunKeys, type KeyMemory } from './runKeys';

export type { RunKeys } from './runKeys';

/** Where the node keeps its key memory in n8n's node context and the workflow's static data. */
const MEMORY = 'partnerLogisticsIdempotency';
const REFUSALS = 'partnerLogisticsRefusals';
const RUNS = 'partnerLogisticsRuns';

/** Key chains refused, and node runs' inputs finished, in this n8n process: every workflow, mode. */
const { refusedChains: refusedHere, finishedRuns: finishedHere } = PROCESS_MEMORY;
/** Chains and runs remembered per workflow (static data) and per execution (node context). */
const WORKFLOW_BOUND = 1_000;

/**
 * The keys of a node run of `action` against the API at `api`; making them writes nothing. A
 * creation's key is made of the run's input (which a Retry is handed again) and how many runs of it
 * finished, counted in this process and the static data (saved after all but manual executions).
 * A referent's key needs no memory; only the API's refusals are kept, so a fixed request reaches it
 * as new, in three places read together, as each misses a path the others reach:
 * - the node context: an execution's Retry, either kind, on any queue worker, manual runs too;
 * - the workflow's static data: a new execution, a sub-workflow restarted by a retried parent, a
 *   tool call, another queue worker or a restarted n8n;
 * - this process: every run in it, manual runs and other workflows on the same referent too.
 */
export function runKeys(context: IExecuteFunctions, action: string, api: string): RunKeys {
	const { memory, keep } = nodeMemory(context);
	const inContext = recordPlace(
		WORKFLOW_BOUND,
		() => memory.chains,
		(chains) => {
			memory.chains = chains;
			keep();
		},
	);
	return new RunKeys(memory, {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		nodeId: context.getNode().id,
		runIndex: context.getWorkflowDataProxy(0).$runIndex as number,
		action,
		api,
		refusals: new GenerationMemory([refusedHere, inContext, ...staticPlace(context, REFUSALS)]),
		runs: new GenerationMemory([finishedHere, ...staticPlace(context, RUNS)]),
		input: () => JSON.stringify(context.getInputData().map((item) => item.json)),
		keep,
	});
}

/** The node context's memory, else a new one, kept there on its first change. */
function nodeMemory(context: IExecuteFunctions): { memory: KeyMemory; keep: () => void } {
	let nodeContext: IDataObject | undefined;
	try {
		nodeContext = context.getContext('node');
	} catch {
		// n8n keeps no context for this run: its memory holds for this run only.
	}
	const memory = (nodeContext?.[MEMORY] as KeyMemory | undefined) ?? { sent: {} };
	const keep = () => {
		if (nodeContext) nodeContext[MEMORY] = memory;
	};
	return { memory, keep };
}

/**
 * A record in the workflow's static data, written only when raised (n8n saves it when changed),
 * replaced whole: n8n notices changes inside objects there at the start, not in ones added since.
 */
function staticPlace(context: IExecuteFunctions, name: string): GenerationPlace[] {
	let data: IDataObject;
	try {
		data = context.getWorkflowStaticData('global');
	} catch {
		return [];
	}
	const held = () => data[name] as Generations | undefined;
	return [recordPlace(WORKFLOW_BOUND, held, (generations) => (data[name] = generations))];
}
