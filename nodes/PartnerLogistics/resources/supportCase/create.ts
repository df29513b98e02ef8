import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { additionalFields } from '../../descriptions/fields';
import type { BodyInput, OperationSpec } from '../../pipeline/operation';
import { compact } from '../../pipeline/problem';
import { externalReference } from '../../route/reference';

/** Values the spec names for open enumerations: the default, with any other value accepted. */
const knownValue = (value: string) =>
	`${value} is the value the API documentation names; any other value the API accepts can be typed`;

const metadataField: INodeProperties = {
	displayName: 'Metadata',
	name: 'metadata',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Metadata',
	description: 'Your own key/value data to keep with the case',
	options: [
		{
			displayName: 'Entry',
			name: 'entry',
			values: [
				{
					displayName: 'Key',
					name: 'key',
					type: 'string',
					default: '',
					placeholder: 'e.g. orderId',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					placeholder: 'e.g. ORDER-10045',
				},
			],
		},
	],
};

const fields: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'e.g. Parcel not delivered',
		description: 'Short title of the issue',
	},
	{
		displayName: 'Summary',
		name: 'summary',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. Booking bk_123 shows delivered but the recipient has nothing',
		description: 'Description of the issue',
		hint: 'Attach evidence in the partner portal; never put private storage links in the text',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'string',
		default: 'DELIVERY_ISSUE',
		placeholder: 'e.g. DELIVERY_ISSUE',
		description: 'Category of the issue',
		hint: knownValue('DELIVERY_ISSUE'),
	},
	{
		displayName: 'Priority',
		name: 'priority',
		type: 'string',
		default: 'MEDIUM',
		placeholder: 'e.g. MEDIUM',
		description: 'Priority of the issue',
		hint: knownValue('MEDIUM'),
	},
	additionalFields([
		metadataField,
		{
			displayName: 'Related Resource ID',
			name: 'relatedResourceId',
			type: 'string',
			default: '',
			placeholder: 'e.g. bk_123',
			description: 'ID of one of your resources the case is about, e.g. a booking ID',
		},
		{
			displayName: 'Related Resource Type',
			name: 'relatedResourceType',
			type: 'string',
			default: 'BOOKING',
			placeholder: 'e.g. BOOKING',
			description: 'Type of the related resource',
			hint: knownValue('BOOKING'),
		},
	]),
];

function supportCaseBody({ read }: BodyInput): IDataObject {
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const entries = ((additional.metadata as IDataObject | undefined)?.entry ?? []) as IDataObject[];
	const metadata = Object.fromEntries(
		entries.filter((entry) => entry.key !== '').map((entry) => [String(entry.key), entry.value]),
	);
	return compact({
		title: read('title'),
		summary: read('summary'),
		category: read('category'),
		priority: read('priority'),
		relatedResourceType: additional.relatedResourceType,
		relatedResourceId: additional.relatedResourceId,
		metadata: entries.length ? metadata : undefined,
	});
}

export const supportCaseCreate: OperationSpec = {
	name: 'Create',
	value: 'create',
	capability: 'support:create',
	action: 'Create a support case',
	description: 'Open a support case (needs the support:create capability)',
	fields,
	method: 'POST',
	path: '/partner-api/support-cases',
	body: supportCaseBody,
	reference: externalReference,
};
