import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { testApiKey } from './methods/testApiKey';
import { readPollSettings } from './pipeline/runSettings';
import { type Change, compare, type CompareOptions } from './polling/changes';
import { canonicalJson } from './polling/digest';
import { DEFAULT_POLL_OPTIONS, pollingProperties } from './polling/description';
import { recall } from './polling/memory';
import { endPoll, startPoll } from './polling/overlap';
import { type Observation, observe } from './polling/watches';

export class PartnerLogisticsPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Logistics Polling Trigger',
		name: 'partnerLogisticsPollingTrigger',
		icon: {
			light: 'file:../../icons/partnerLogistics.svg',
			dark: 'file:../../icons/partnerLogistics.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["watch"] === "payment" ? "Payments" : $parameter["watch"] === "truck" ? "Assigned trucks" : "Support cases" }}',
		description:
			'Starts a workflow when a Partner Logistics support case, truck assignment or payment is new or has changed, by polling the API: no public URL needed',
		defaults: { name: 'Partner Logistics Polling Trigger' },
		// n8n adds the Poll Times picker, runs poll() at those times and saves the node's static data.
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'partnerLogisticsApi', required: true, testedBy: 'testApiKey' }],
		// A copy: n8n's loader adds Poll Times to the array it is given.
		properties: [...pollingProperties],
	};

	methods = { credentialTest: { testApiKey } };

	/**
	 * One poll: read what is watched (through the pipeline) -> compare with the memory of the
	 * previous polls -> remember -> emit the changes. Anything that fails throws before the memory
	 * is written, so the next poll sees the same changes again: none is lost, none repeated, and
	 * n8n shows the error (a failed execution of an active workflow; the editor's Fetch Test Event).
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = await readPollSettings(this);
		if (this.getMode() === 'manual') return items(current(await observe(this, settings)));

		const scope = `${this.getWorkflow().id}/${this.getNode().id}`;
		if (!startPoll(scope)) return null;
		try {
			const options = readOptions(this);
			const observation = await observe(this, settings);
			if (observation.observed.length > options.maxRecords) {
				throw tooMany(this, observation, options);
			}

			const staticData = this.getWorkflowStaticData('node');
			const before = recall(staticData.memory, observation.watching);
			const { changes, memory } = compare(before, observation.observed, {
				...options,
				watching: observation.watching,
			});
			if (canonicalJson(memory) !== canonicalJson(before)) {
				staticData.memory = memory as unknown as IDataObject;
			}
			return items(changes);
		} finally {
			endPoll(scope);
		}
	}
}

/**
 * Fetch Test Event in the editor: the records as they are now (`current`), so the rest of the
 * workflow can be built on real data. The memory is neither read nor written (n8n does not save a
 * manual run's static data anyway), so testing never hides a change from the active workflow.
 */
function current({ observed }: Observation): Change[] {
	return observed.map(({ id, record }) => ({
		change: 'current',
		recordId: id,
		changedFields: [],
		record,
	}));
}

function items(changes: Change[]): INodeExecutionData[][] | null {
	return changes.length
		? [changes.map((change) => ({ json: change as unknown as IDataObject }))]
		: null;
}

/** The trigger's Options; a value out of range stops the poll with the rule. */
function readOptions(context: IPollFunctions): Omit<CompareOptions, 'watching'> {
	const options = (context.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const maxRecords = options.maxRecords ?? DEFAULT_POLL_OPTIONS.maxRecords;
	if (typeof maxRecords !== 'number' || !Number.isInteger(maxRecords) || maxRecords < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Options › Max Records Remembered (maxRecords) must be a whole number of at least 1, got ${JSON.stringify(maxRecords)}`,
		);
	}
	return {
		maxRecords,
		emitCurrentState: options.emitCurrentState === true,
		includePrevious: options.includePrevious === true,
	};
}

function tooMany(
	context: IPollFunctions,
	{ observed, what }: Observation,
	{ maxRecords }: { maxRecords: number },
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The API listed ${observed.length} ${what}, more than Options › Max Records Remembered (${maxRecords})`,
		{
			description:
				'Nothing was emitted or remembered, so no change is lost. Raise Max Records Remembered, or watch fewer records (e.g. a narrower status).',
		},
	);
}
