import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsField, textField } from '../descriptions/fields';
import { optionsDescription } from '../pipeline';
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

/** A collection of the pipeline's less what a poll has no use for, plus its own, sorted (lint). */
const narrowed = (collection: INodeProperties, dropped: string[], own: INodeProperties[] = []) => ({
	...collection,
	options: [
		...(collection.options as INodeProperties[]).filter(({ name }) => !dropped.includes(name)),
		...own,
	].sort((a, b) => a.displayName.localeCompare(b.displayName)),
});

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
		options: WATCHES.map(({ name, value, description }) => ({
			name,
			value,
			// "New or Changed Quote Request (GO_BULK)" -> "On new or changed quote request"
			action: `On ${name.replace(/ \(.*\)$/, '').toLowerCase()}`,
			description,
		})).sort((a, b) => a.name.localeCompare(b.name)),
	},
	...WATCHES.flatMap(({ value, fields = [], identity }) =>
		updateDisplayOptions({ show: { watch: [value] } }, [...fields, identity]),
	),
	optionsField(
		'changesThatCount',
		'Changes That Count',
		'Which differences between two polls start the workflow for a record',
		[
			[
				'Any Field',
				'anyField',
				'A record is changed when anything in it changed (the default: the API documentation shows no record fields to choose from)',
			],
			[
				'Only the Fields Named',
				'namedFields',
				"A record is changed only when one of the fields you name changed, e.g. a trip's status but not its position",
			],
		],
		{ noDataExpression: true },
	),
	textField(
		'changeFields',
		'Field Names',
		'The fields of a record whose changes count, separated by commas; dots read nested fields',
		'status',
		{
			required: true,
			hint: 'Names as the records carry them (Fetch Test Event shows them). A field a record lacks counts as empty. Changing this list starts over with a first poll.',
			displayOptions: { show: { changesThatCount: ['namedFields'] } },
		},
	),
	// A poll only reads (no Idempotency Key, no Dry Run) and has no items to pace (no Batching).
	narrowed(pipelineOptions, ['idempotencyKey', 'dryRun'], pollOptionFields),
	narrowed(requestOptionsDescription, ['batching']),
];
