import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { processMap } from '../../shared/processMemory';
import { recordPlace, RefusalMemory, type Generations, type RefusalPlace } from './refusedKeys';
import { RunKeys, type KeyMemory } from './runKeys';

export type { RunKeys } from './runKeys';

/** Where the node keeps its key memory in n8n's node context and the workflow's static data. */
const MEMORY = 'partnerLogisticsIdempotency';
const REFUSALS = 'partnerLogisticsRefusals';

/** Referent chains refused in this n8n process, over every workflow and mode. */
const inThisProcess = processMap<number>('refused referent chains', { max: 10_000 });
const processPlace: RefusalPlace = {
	generation: (chain) => inThisProcess.get(chain),
	raise: (chain, generation) => inThisProcess.set(chain, generation),
};
/** Referent chains remembered per workflow (static data) and per execution (node context). */
const WORKFLOW_BOUND = 1_000;

/**
 * The keys of a node run of `action` against the API at `api`. Creations are keyed per item from
 * the node's context, which n8n saves with the execution and hands back to its Retry; a call
 * outside any execution (an MCP tool call answered by n8n's webhook process) gets a random seed.
 *
 * An action on a referent needs no memory to be repeated safely: its key is the referent's. Only
 * the API's refusals are remembered, so a fixed request reaches it as new, in three places read
 * together, as each misses a path the others reach:
 * - the node context: an execution's Retry, either kind, on any queue worker, manual runs too;
 * - the workflow's static data, saved to n8n's database after every execution but a manual one:
 *   a new execution, a sub-workflow restarted by a retried parent, a tool call, another queue
 *   worker or a restarted n8n;
 * - this process: every run in it, manual runs and other workflows on the same referent too.
 *
 * A dry run (`preview`) reads all three and writes nowhere: its keys are those a real run sends.
 */
export function runKeys(
	context: IExecuteFunctions,
	action: string,
	api: string,
	{ preview = false } = {},
): RunKeys {
	const memory = nodeMemory(context, preview);
	const chains = (memory.chains ??= {});
	const refusals = new RefusalMemory([
		processPlace,
		recordPlace(WORKFLOW_BOUND, () => chains),
		...staticPlace(context),
	]);
	const scope = {
		instanceId: context.getInstanceId(),
		workflowId: context.getWorkflow().id ?? '',
		nodeId: context.getNode().id,
		runIndex: context.getWorkflowDataProxy(0).$runIndex as number,
		action,
	};
	return new RunKeys(memory, scope, { api, refusals });
}

/** The node context's memory, else a new one seeded by this execution; a preview's kept nowhere. */
function nodeMemory(context: IExecuteFunctions, preview: boolean): KeyMemory {
	const fresh = (): KeyMemory => ({
		seed: context.getExecutionId() || randomUUID(),
		sent: {},
		refused: {},
	});
	try {
		const nodeContext = context.getContext('node');
		const held = nodeContext[MEMORY] as KeyMemory | undefined;
		if (preview) return held ? (deepCopy(held) as KeyMemory) : fresh();
		return held ?? (nodeContext[MEMORY] = fresh());
	} catch {
		// n8n keeps no context for this run: its keys hold for this run only.
		return fresh();
	}
}

/**
 * The workflow's static data, written only on a refusal: n8n saves static data that changed, and
 * reading it (n8n adding an empty `global` on first use) changes nothing. The record is replaced
 * whole: n8n notices changes inside objects there when the execution began, not in one added since.
 */
function staticPlace(context: IExecuteFunctions): RefusalPlace[] {
	let data: IDataObject;
	try {
		data = context.getWorkflowStaticData('global');
	} catch {
		return [];
	}
	const held = () => data[REFUSALS] as Generations | undefined;
	return [recordPlace(WORKFLOW_BOUND, held, (generations) => (data[REFUSALS] = generations))];
}
