import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { extraBodyField } from '../../shared/descriptions';
import { homeFields, hubPicker, methodField } from '../../shared/route';
import { compact, type ParameterReader } from '../../shared/routeBody';

const showOnlyForQuoteRequestCreate = { resource: ['quoteRequest'], operation: ['create'] };

const inferredHome =
	'Inferred: the spec does not show the GO_BULK home address fields; these follow the direct booking fields';

/** One end of a GO_BULK route: method, then home fields (inferred, optional) or a hub picker. */
const goBulkEnd = (side: 'pickup' | 'dropoff'): INodeProperties[] => [
	methodField(side),
	...homeFields(side).map((field) => ({ ...field, required: false, hint: inferredHome })),
	hubPicker(side, side === 'pickup' ? 'Pickup Hub' : 'Drop-Off Hub'),
];

export const quoteRequestCreateDescription: INodeProperties[] = updateDisplayOptions(
	{ show: showOnlyForQuoteRequestCreate },
	[
		{
			displayName: 'Item Description',
			name: 'itemDescription',
			type: 'string',
			default: '',
			placeholder: 'e.g. 40 bags of cement',
			description: 'Description of the goods to move',
		},
		{
			displayName: 'Quantity',
			name: 'quantity',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Count of items',
		},
		...goBulkEnd('pickup'),
		...goBulkEnd('dropoff'),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Special Handling Requirement',
					name: 'specialHandlingRequirement',
					type: 'string',
					default: '',
					placeholder: 'e.g. Keep dry, forklift needed',
					description: 'Free text for the operator pricing the request',
				},
				extraBodyField,
			],
		},
	],
);

/** Body of a GO_BULK quote request: the fields the spec shows, those of the chosen ends only. */
export function quoteRequestBody(read: ParameterReader): IDataObject {
	const pickupMethod = read('pickupMethod') ?? 'HOME_PICKUP';
	const dropoffMethod = read('dropoffMethod') ?? 'HOME_DELIVERY';
	const end = (side: 'pickup' | 'dropoff', viaHub: boolean) =>
		viaHub
			? { [`${side}HubId`]: read(`${side}HubId`) }
			: {
					[`${side}Address`]: read(`${side}Address`),
					[`${side}Latitude`]: read(`${side}Latitude`),
					[`${side}Longitude`]: read(`${side}Longitude`),
				};
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	return compact({
		itemDescription: read('itemDescription'),
		quantity: read('quantity'),
		pickupMethod,
		...end('pickup', pickupMethod === 'HUB_DROPOFF'),
		dropoffMethod,
		...end('dropoff', dropoffMethod === 'HUB_PICKUP'),
		specialHandlingRequirement: additional.specialHandlingRequirement,
	});
}
