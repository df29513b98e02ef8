import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFields, extraBodyField } from '../descriptions/fields';
import type { BodyInput } from '../pipeline/operation';
import { compact, firstProblem, type Problem } from '../pipeline/problem';
import { pick } from './body';
import { homeFields, hubPicker, methodField } from './ends';
import { checkNumber, numberField } from './numbers';
import { oneOf, text } from './rules';
import { DEFINE, INPUT_FIELDS, inputFieldsNotice, routeSourceField } from './routeSource';

/** One end of a GO_BULK route: method, then home fields (optional) or a hub picker. */
const goBulkEnd = (side: 'pickup' | 'dropoff'): INodeProperties[] => [
	methodField(side),
	...homeFields(side).map((field) => ({ ...field, required: false })),
	hubPicker(side, side === 'pickup' ? 'Pickup Hub' : 'Drop-Off Hub'),
];

/** The GO_BULK request typed in the form: the goods, then both ends of the route. */
const goBulkForm: INodeProperties[] = [
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
		(says) => `${says.charAt(0).toUpperCase()}${says.slice(1)}; leave empty to send none`,
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
];

const specialHandling: INodeProperties = {
	displayName: 'Special Handling',
	name: 'specialHandlingRequirement',
	type: 'string',
	default: '',
	placeholder: 'e.g. Keep dry, forklift needed',
	description: 'Free text for the operator pricing the request',
};

/** The GO_BULK body fields, those of both ends included; a body keeps the chosen ends' only. */
const GO_BULK_FIELDS = [
	...goBulkForm.filter((field) => field.type !== 'notice').map((field) => field.name),
	specialHandling.name,
];

/** The fields of Quote Request › Create. */
export const goBulkFields: INodeProperties[] = [
	routeSourceField(false),
	inputFieldsNotice(GO_BULK_FIELDS),
	...updateDisplayOptions({ show: { routeSource: [DEFINE] } }, goBulkForm),
	additionalFields([specialHandling, extraBodyField]),
];

/** A GO_BULK body: the spec's fields of the chosen ends only, as given (never filled in). */
export function goBulkBody({ read, item }: BodyInput): IDataObject {
	const source =
		read('routeSource') === INPUT_FIELDS
			? item
			: Object.fromEntries(GO_BULK_FIELDS.map((field) => [field, read(field)]));
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const body = pick({ ...source, ...compact(additional) }, GO_BULK_FIELDS);
	const otherEnd = (side: string, viaHub: boolean) =>
		viaHub ? [`${side}Address`, `${side}Latitude`, `${side}Longitude`] : [`${side}HubId`];
	for (const field of otherEnd('pickup', body.pickupMethod === 'HUB_DROPOFF')) delete body[field];
	for (const field of otherEnd('dropoff', body.dropoffMethod === 'HUB_PICKUP')) delete body[field];
	return body;
}

/**
 * Checks a GO_BULK quote request: the hub rules the spec shows, and types and bounds of what is
 * given. The spec names no required field, so none is demanded beyond a hub for a hub method.
 */
export function goBulkCheck(body: IDataObject): Problem | undefined {
	const given = (field: string) =>
		body[field] === undefined ? undefined : checkNumber(body[field], field);
	return (
		oneOf(body, 'pickupMethod', ['HOME_PICKUP', 'HUB_DROPOFF']) ??
		oneOf(body, 'dropoffMethod', ['HOME_DELIVERY', 'HUB_PICKUP']) ??
		(body.pickupMethod === 'HUB_DROPOFF' ? text(body.pickupHubId, 'pickupHubId') : undefined) ??
		(body.dropoffMethod === 'HUB_PICKUP' ? text(body.dropoffHubId, 'dropoffHubId') : undefined) ??
		given('quantity') ??
		firstProblem(['pickupLatitude', 'dropoffLatitude'].map(given)) ??
		firstProblem(['pickupLongitude', 'dropoffLongitude'].map(given))
	);
}
