import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsDescription } from '../pipeline';
import type { WatchSpec } from './watch';
import { WATCHES } from './watches';

/** The trigger's own Options; each default is declared here once (DEFAULT_POLL_OPTIONS). */
const pollOptionFields: INodeProperties[] = [
	{
		displayName: 'Emit Current State on First Poll',
		name: 'emitCurrentState',
		type: 'boolean',
		default: false,
		description:
			'Whether the first poll emits every record as it is now (change: current). Otherwise the first poll only learns the records and emits nothing.',
	},
	{
		displayName: 'Include Previous Record',
		name: 'includePrevious',
		type: 'boolean',
		default: false,
		description:
			"Whether a changed record's item also carries the record as the previous poll saw it (previous)",
		hint: 'The trigger then remembers whole records instead of only their digests, which takes more space in the workflow',
	},
	{
		displayName: 'Max Records Remembered',
		name: 'maxRecords',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10_000, numberPrecision: 0 },
		default: 1000,
		description:
			'How many records the trigger remembers between polls; beyond that, those it has not seen listed for longest are forgotten first',
		hint: 'A poll that finds more records than this fails with a message rather than forget records the API still lists',
	},
];

export const DEFAULT_POLL_OPTIONS = Object.fromEntries(
	pollOptionFields.map((field) => [field.name, field.default]),
) as { emitCurrentState: boolean; includePrevious: boolean; maxRecords: number };

const [pipelineOptions, requestOptionsDescription] = optionsDescription([]);

/** The pipeline's options but Idempotency Key and Dry Run (a poll only reads), and its own. */
const options: INodeProperties = {
	...pipelineOptions,
	options: [
		...(pipelineOptions.options as INodeProperties[]).filter(
			(option) => !['idempotencyKey', 'dryRun'].includes(option.name),
		),
		...pollOptionFields,
	].sort((a, b) => a.displayName.localeCompare(b.displayName)), // as n8n's lint asks
};

/** n8n's Request Options without Batching, which paces items: a poll has none. */
const requestOptions: INodeProperties = {
	...requestOptionsDescription,
	options: (requestOptionsDescription.options as INodeProperties[]).filter(
		(option) => option.name !== 'batching',
	),
};

/** A watch's own parameters, shown only when Trigger On is that watch. */
function watchProperties(watch: WatchSpec): INodeProperties[] {
	const identity = 'idField' in watch.identity ? watch.identity.idField : watch.identity.listedIds;
	return updateDisplayOptions({ show: { watch: [watch.value] } }, [
		...(watch.fields ?? []),
		identity,
	]);
}

/** What counts as a change, for every watch (the reasons are in the option descriptions). */
const changeProperties: INodeProperties[] = [
	{
		displayName: 'Changes That Count',
		name: 'changesThatCount',
		type: 'options',
		noDataExpression: true,
		default: 'anyField',
		options: [
			{
				name: 'Any Field',
				value: 'anyField',
				description:
					'A record is changed when anything in it changed (the default: the API documentation shows no record fields to choose from)',
			},
			{
				name: 'Only the Fields Named',
				value: 'namedFields',
				description:
					"A record is changed only when one of the fields you name changed, e.g. a trip's status but not its position",
			},
		],
		description: 'Which differences between two polls start the workflow for a record',
	},
	{
		displayName: 'Field Names',
		name: 'changeFields',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. status',
		description:
			'The fields of a record whose changes count, separated by commas; dots read nested fields',
		hint: 'Names as the records carry them (Fetch Test Event shows them). A field a record lacks counts as empty. Changing this list starts over with a first poll.',
		displayOptions: { show: { changesThatCount: ['namedFields'] } },
	},
];

/** The polling trigger's parameters: what it watches, how to tell records apart, the options. */
export const pollingProperties: INodeProperties[] = [
	{
		displayName:
			'Checks the Partner Logistics API at the Poll Times above and starts the workflow with one item per record that is new or has changed since the previous poll. No public URL needed. The first poll only learns what exists, unless Options › Emit Current State on First Poll is on.',
		name: 'pollingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Trigger On',
		name: 'watch',
		type: 'options',
		noDataExpression: true,
		default: 'supportCase',
		options: WATCHES.map(({ name, value, action, description }) => ({
			name,
			value,
			action,
			description,
		})).sort((a, b) => a.name.localeCompare(b.name)),
	},
	...WATCHES.flatMap(watchProperties),
	...changeProperties,
	options,
	requestOptions,
];
