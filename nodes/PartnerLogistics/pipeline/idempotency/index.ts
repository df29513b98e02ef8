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
 * creation's key counts the finished runs of its input (a Retry is handed it again) here and in the
 * static data (saved after all but manual executions). Refusals, so a fixed request reaches the API
 * as new, are kept in three places read together, each reaching paths the others miss: the node
 * context (an execution's Retry, manual runs too), the static data (new executions, tool calls,
 * other workers, a restart), this process (every run in it); docs/rate-limits-and-retries.md.
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
