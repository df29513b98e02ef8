import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PROCESS_MEMORY } from '../../shared/processMemory';
import { GenerationMemory, recordPlace } from './generations';
import { RunKeys, type KeyMemory } from './runKeys';

export type { RunKeys } from './runKeys';

/** Where the node keeps its key memory in n8n's node context. */
const MEMORY = 'partnerLogisticsIdempotency';
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
	let nodeContext: IDataObject | undefined;
	try {
		nodeContext = context.getContext('node');
	} catch {
		// n8n keeps no node context for this run: the other places hold.
	}
	const workflowData = context.getWorkflowStaticData('global');
	const memory = (nodeContext?.[MEMORY] as KeyMemory | undefined) ?? { sent: {} };
	const keep = () => {
		if (nodeContext) nodeContext[MEMORY] = memory;
	};
	const { refusedChains, finishedRuns } = PROCESS_MEMORY;
	const inWorkflow = (name: string) => recordPlace(workflowData, name, WORKFLOW_BOUND);
	const inContext = recordPlace(memory, 'chains', WORKFLOW_BOUND, keep);
	const refusals = [refusedChains, inContext, inWorkflow('partnerLogisticsRefusals')];
	return new RunKeys(memory, {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		nodeId: context.getNode().id,
		runIndex: context.getWorkflowDataProxy(0).$runIndex as number,
		action,
		api,
		refusals: new GenerationMemory(refusals),
		runs: new GenerationMemory([finishedRuns, inWorkflow('partnerLogisticsRuns')]),
		input: () => JSON.stringify(context.getInputData().map((item) => item.json)),
		keep,
	});
}
