import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { processMap, type ProcessMap } from '../../shared/processMemory';
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
const refusedHere = processPlace(processMap<number>('refused key chains', { max: 10_000 }));
const finishedHere = processPlace(processMap<number>('finished runs, by input', { max: 10_000 }));
/** Chains and runs remembered per workflow (static data) and per execution (node context). */
const WORKFLOW_BOUND = 1_000;

/**
 * The keys of a node run of `action` against the API at `api`; making them writes nothing.
 *
 * A creation's key is made of the run's input items, which n8n hands unchanged to an execution's
 * Retry, even of one it crashed in, and of how many runs of that input finished: a later run of the
 * same rows creates anew, a run that failed or died did not finish. Finished runs are counted in
 * this process and the workflow's static data (saved after every execution but a manual one).
 *
 * An action on a referent needs no memory to be repeated safely: its key is the referent's. Only
 * the API's refusals are remembered, so a fixed request reaches it as new, in three places read
 * together, as each misses a path the others reach:
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
	const scope = {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		nodeId: context.getNode().id,
		runIndex: context.getWorkflowDataProxy(0).$runIndex as number,
		action,
	};
	return new RunKeys(memory, scope, {
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

/** A process map as a place: it forgets by its own bound. */
function processPlace(map: ProcessMap<number>): GenerationPlace {
	return {
		generation: (chain) => map.get(chain),
		raise: (chain, generation) => map.set(chain, generation),
	};
}

/**
 * A record in the workflow's static data, written only when raised: n8n saves static data that
 * changed, and reading it (n8n adding an empty `global` on first use) changes nothing. The record is
 * replaced whole: n8n notices changes inside objects there when the execution began, not in one
 * added since.
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
