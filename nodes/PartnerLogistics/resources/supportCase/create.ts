import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { additionalFields, knownValueField, textField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { compact } from '../../pipeline/problem';
import { valueAt } from '../../shared/valueAt';

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
				textField('key', 'Key', 'Name of the entry', 'orderId'),
				textField('value', 'Value', 'Value of the entry', 'ORDER-10045'),
			],
		},
	],
};

export const supportCaseCreate: OperationSpec = {
	name: 'Create',
	value: 'create',
	capability: 'support:create',
	action: 'Create a support case',
	description: 'Open a support case (needs the support:create capability)',
	fields: [
		textField('title', 'Title', 'Short title of the issue', 'Parcel not delivered'),
		textField(
			'summary',
			'Summary',
			'Description of the issue',
			'Booking bk_123 shows delivered but the recipient has nothing',
			{
				typeOptions: { rows: 4 },
				hint: 'Attach evidence in the partner portal; never put private storage links in the text',
			},
		),
		knownValueField('category', 'Category', 'Category of the issue', 'DELIVERY_ISSUE'),
		knownValueField('priority', 'Priority', 'Priority of the issue', 'MEDIUM'),
		additionalFields([
			metadataField,
			textField(
				'relatedResourceId',
				'Related Resource ID',
				'ID of one of your resources the case is about, e.g. a booking ID',
				'bk_123',
			),
			knownValueField(
				'relatedResourceType',
				'Related Resource Type',
				'Type of the related resource',
				'BOOKING',
			),
		]),
	],
	method: 'POST',
	path: '/partner-api/support-cases',
	answers: ['caseId'],
	body: ({ read }) => {
		const additional = (read('additionalFields') ?? {}) as IDataObject;
		const entries = (valueAt(additional, 'metadata.entry') ?? []) as IDataObject[];
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
	},
};
