import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { BodyInput } from '../../shared/body';
import { extraBodyField } from '../../shared/descriptions';
import {
	homeFields,
	hubPicker,
	inputFieldsNotice,
	methodField,
	numberField,
	routeSourceField,
} from '../../shared/route';
import { compact, pick } from '../../shared/routeBody';
import { DEFINE, INPUT_FIELDS } from '../../shared/routeRequest';

const showOnlyForQuoteRequestCreate = { resource: ['quoteRequest'], operation: ['create'] };

/** The GO_BULK body fields, those of both ends included; a body keeps the chosen ends' only. */
const GO_BULK_FIELDS = [
	'itemDescription',
	'quantity',
	'pickupMethod',
	'pickupHubId',
	'pickupAddress',
	'pickupLatitude',
	'pickupLongitude',
	'dropoffMethod',
	'dropoffHubId',
	'dropoffAddress',
	'dropoffLatitude',
	'dropoffLongitude',
	'specialHandlingRequirement',
];

/** One end of a GO_BULK route: method, then home fields (optional) or a hub picker. */
const goBulkEnd = (side: 'pickup' | 'dropoff'): INodeProperties[] => [
	methodField(side),
	...homeFields(side).map((field) => ({ ...field, required: false })),
	hubPicker(side, side === 'pickup' ? 'Pickup Hub' : 'Drop-Off Hub'),
];

export const quoteRequestCreateDescription: INodeProperties[] = [
	...updateDisplayOptions({ show: showOnlyForQuoteRequestCreate }, [
		routeSourceField(false),
		inputFieldsNotice(GO_BULK_FIELDS),
	]),
	...updateDisplayOptions({ show: { ...showOnlyForQuoteRequestCreate, routeSource: [DEFINE] } }, [
		{
			displayName: 'Item Description',
			name: 'itemDescription',
			type: 'string',
			default: '',
			placeholder: 'e.g. 40 bags of cement',
			description: 'Description of the goods to move',
		},
		numberField(
			{
				displayName: 'Quantity',
				name: 'quantity',
				placeholder: 'e.g. 40',
				description: 'Count of items',
			},
			'A whole number of at least 1; leave empty to send none',
		),
		{
			displayName:
				'The published API documentation shows the hub fields of a GO_BULK request only. The address and coordinates of a home pickup or delivery follow the direct booking fields; they are optional and sent only when you fill them in. Confirm them with your Partner Logistics contact.',
			name: 'goBulkHomeNotice',
			type: 'notice',
			default: '',
		},
		...goBulkEnd('pickup'),
		...goBulkEnd('dropoff'),
	]),
	...updateDisplayOptions({ show: showOnlyForQuoteRequestCreate }, [
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Special Handling',
					name: 'specialHandlingRequirement',
					type: 'string',
					default: '',
					placeholder: 'e.g. Keep dry, forklift needed',
					description: 'Free text for the operator pricing the request',
				},
				extraBodyField,
			],
		},
	]),
];

/**
 * Body of a GO_BULK quote request: the fields the spec shows (home ends: as given, never filled
 * in), of the chosen ends only, from the form or from the incoming item's own fields.
 */
export function quoteRequestBody({ read, item }: BodyInput): IDataObject {
	const source =
		read('routeSource') === INPUT_FIELDS
			? item
			: Object.fromEntries(GO_BULK_FIELDS.map((field) => [field, read(field)]));
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const body = pick({ ...source, ...compact(additional) }, GO_BULK_FIELDS);
	const otherEnd = (side: string, viaHub: boolean) =>
		viaHub ? [`${side}Address`, `${side}Latitude`, `${side}Longitude`] : [`${side}HubId`];
	for (const field of [
		...otherEnd('pickup', body.pickupMethod === 'HUB_DROPOFF'),
		...otherEnd('dropoff', body.dropoffMethod === 'HUB_PICKUP'),
	]) {
		delete body[field];
	}
	return body;
}
