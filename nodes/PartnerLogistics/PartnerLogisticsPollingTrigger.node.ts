import type { IDataObject, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { testApiKey } from './methods/testApiKey';
import { pollSession } from './pipeline/request';
import { canonicalJson, compare, generationOf, recall } from './polling/changes';
import { pollingProperties } from './polling/description';
import { type Observation, observe } from './polling/observe';
import { awaitingCommit, emittedWith, endPoll, startPoll } from './polling/overlap';
import { readWatchSettings, type WatchSettings } from './polling/settings';
import { WATCHES } from './polling/watches';

const subtitles = Object.fromEntries(
	WATCHES.map(({ value, name }) => [value, name.replace('New or Changed ', '')]),
);

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
		subtitle: `={{ ${JSON.stringify(subtitles)}[$parameter["watch"]] || $parameter["watch"] }}`,
		description:
			'Starts a workflow when a Partner Logistics support case, payment, GO_BULK quote request, HAUL quotation, trip or truck is new or has changed, by polling the API: no public URL needed',
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

	/** Read, compare, remember, emit; a failure throws before the memory is written: nothing lost. */
	async poll(this: IPollFunctions) {
		const api = await pollSession(this);
		const watched = readWatchSettings(this);
		const emit = (changes: IDataObject[]) =>
			changes.length ? [this.helpers.returnJsonArray(changes)] : null;
		if (this.getMode() === 'manual') {
			// Fetch Test Event: what a first poll emitting the current state would. The memory is neither
			// read nor written (n8n saves no manual run's static data): testing hides no change.
			const { observed, failures } = await observe(this, api, watched);
			if (failures.length) throw unreadError(failures, watched);
			const current = { ...watched.compare, emitCurrentState: true };
			return emit(compare(undefined, observed, current).changes);
		}

		const scope = `${this.getWorkflow().id}/${this.getNode().id}`;
		if (!startPoll(scope)) return null;
		try {
			const staticData = this.getWorkflowStaticData('node');
			const generation = generationOf(staticData.memory);
			if (awaitingCommit(scope, generation)) return null;
			const { observed, failures } = await observe(this, api, watched);
			const { maxRecords, watching } = watched.compare;
			if (observed.length > maxRecords) {
				const message = `The API listed ${observed.length} ${watched.watch.records}, more than Options › Max Records Remembered (${maxRecords})`;
				const description =
					'Nothing was emitted or remembered, so no change is lost. Raise Max Records Remembered, or watch fewer records (e.g. a narrower status).';
				throw new NodeOperationError(this.getNode(), message, { description });
			}
			const before = recall(staticData.memory, watching);
			const unread = failures.map(({ id }) => id);
			const { changes, memory } = compare(before, observed, watched.compare, unread);
			if (failures.length) {
				if (changes.length === 0) throw unreadError(failures, watched);
				this.logger.warn(
					`Partner Logistics Polling Trigger "${this.getNode().name}": ${failures.length} of ${watched.ids?.length ?? 0} ${watched.watch.records} could not be read: ${unreadList(failures)}. The others' changes were emitted; theirs come with a later poll.`,
					{ workflowId: this.getWorkflow().id },
				);
			}
			if (canonicalJson(memory) !== canonicalJson(before)) {
				staticData.memory = { ...memory, generation: generation + 1 };
				if (changes.length) emittedWith(scope, generation + 1);
			}
			return emit(changes);
		} finally {
			endPoll(scope);
		}
	}
}

/** Each ID that could not be read, once, with why: "qr_2 (The API's answer grew past …)". */
function unreadList(failures: Observation['failures']): string {
	const listed = failures.slice(0, 10).map(({ id, error }) => `${id} (${error.message})`);
	return listed.join('; ') + (failures.length > 10 ? `; and ${failures.length - 10} more` : '');
}

/** A poll with nothing to emit but IDs it could not read fails: the first failure, and each ID. */
function unreadError(failures: Observation['failures'], { ids = [] }: WatchSettings): Error {
	const [{ error }] = failures;
	if (ids.length > 1 && (error instanceof NodeApiError || error instanceof NodeOperationError)) {
		const which = failures.length > 1 ? ` They are ${unreadList(failures)}.` : '';
		error.description =
			`${error.description ?? ''} ${failures.length} of ${ids.length} IDs could not be read; nothing is lost, the next poll reads them again.${which}`.trim();
	}
	return error;
}
