import type { INodeProperties } from 'n8n-workflow';

import { optionsDescription, requestOptionsDescription } from '../pipeline/options';

/** What the trigger watches: the values of Trigger On. */
export type WatchValue = 'payment' | 'supportCase' | 'truck';

const showFor = (watch: WatchValue) => ({ show: { watch: [watch] } });

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

/** The defaults of the trigger's own Options, as their fields declare them. */
export const DEFAULT_POLL_OPTIONS = Object.fromEntries(
	pollOptionFields.map((field) => [field.name, field.default]),
) as { emitCurrentState: boolean; includePrevious: boolean; maxRecords: number };

/**
 * The pipeline's switches that apply to a poll (a poll sends no POST, so no Idempotency Key),
 * declared once in pipeline/options.ts, and the trigger's own, alphabetically as n8n lint asks.
 */
const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		...(optionsDescription([])[0].options as INodeProperties[]).filter(
			(option) => option.name !== 'idempotencyKey',
		),
		...pollOptionFields,
	].sort((a, b) => a.displayName.localeCompare(b.displayName)),
};

/** n8n's Request Options without Batching, which paces items: a poll has none. */
const requestOptions: INodeProperties = {
	...requestOptionsDescription,
	options: (requestOptionsDescription.options as INodeProperties[]).filter(
		(option) => option.name !== 'batching',
	),
};

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
		options: [
			{
				name: 'New or Changed Payment',
				value: 'payment',
				action: 'On new or changed payment',
				description: 'Looks up the status of each payment reference you list, on every poll',
			},
			{
				name: 'New or Changed Support Case',
				value: 'supportCase',
				action: 'On new or changed support case',
				description: 'Lists support cases by status (needs the support:read capability)',
			},
			{
				name: 'New or Changed Truck Assignment',
				value: 'truck',
				action: 'On new or changed truck assignment',
				description: 'Lists the trucks assigned to your haulage quotations',
			},
		],
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'string',
		default: 'OPEN',
		placeholder: 'e.g. OPEN',
		description: 'Only cases with this status are listed and watched',
		hint: 'OPEN is the status the API documentation names; any other status the API knows can be typed. A case that leaves this status is no longer listed, so its change is not seen.',
		displayOptions: showFor('supportCase'),
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		hint: 'Each poll watches the cases one list request returns; raise it if more cases than this have the status',
		displayOptions: showFor('supportCase'),
	},
	{
		displayName: 'Case ID Field',
		name: 'caseIdField',
		type: 'string',
		default: 'caseId',
		placeholder: 'e.g. caseId',
		description: 'The field of a case record that identifies the case',
		hint: 'Inferred: the API documentation names caseId as the path parameter of a case but shows no record fields. Change it if your cases carry their identifier in another field. Dots read nested fields.',
		displayOptions: showFor('supportCase'),
	},
	{
		displayName: 'Assignment ID Field',
		name: 'assignmentIdField',
		type: 'string',
		default: 'assignmentId',
		placeholder: 'e.g. assignmentId',
		description: 'The field of an assigned truck record that identifies the assignment',
		hint: 'Inferred: the API documentation names assignmentId as the path parameter of a truck assignment but shows no record fields. Change it if yours carry their identifier in another field. Dots read nested fields.',
		displayOptions: showFor('truck'),
	},
	{
		displayName: 'Payment References',
		name: 'references',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. pay_123, pay_456',
		description:
			'The payment references to look up on each poll, separated by commas, spaces or new lines; an expression may also give a list',
		hint: 'Each payment is identified by the reference you list, the one its lookup takes. One reference the API cannot find fails the whole poll, naming it.',
		displayOptions: showFor('payment'),
	},
	options,
	requestOptions,
];
