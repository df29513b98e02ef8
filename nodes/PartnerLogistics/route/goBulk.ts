import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { additionalFields, extraBodyField, textField } from '../descriptions/fields';
import type { BodyInput } from '../pipeline/operation';
import { compact, firstProblem, type Problem } from '../pipeline/problem';
import { pick } from './body';
import { endFields, ENDS, SIDES } from './ends';
import { checkNumber, numberField } from './numbers';
import { validateEnds } from './rules';
import { INPUT_FIELDS, routeSourceFields } from './routeSource';

const goBulkForm: INodeProperties[] = [
	textField(
		'itemDescription',
		'Item Description',
		'Description of the goods to move',
		'40 bags of cement',
	),
	numberField(
		'quantity',
		'Quantity',
		'Count of items',
		'40',
		(says) => `${says.charAt(0).toUpperCase()}${says.slice(1)}; leave empty to send none`,
	),
	{
		displayName:
			'The published API documentation shows the hub fields of a GO_BULK request only. The address and coordinates of a home pickup or delivery follow the direct booking fields; they are optional and sent only when you fill them in. Confirm them with your Partner Logistics contact.',
		name: 'goBulkHomeNotice',
		type: 'notice',
		default: '',
	},
	...SIDES.flatMap((side) => endFields(side, {}, false)),
];

const specialHandling = textField(
	'specialHandlingRequirement',
	'Special Handling',
	'Free text for the operator pricing the request',
	'Keep dry, forklift needed',
);

/** The GO_BULK body fields, those of both ends included; a body keeps the chosen ends' only. */
const GO_BULK_FIELDS = [
	...goBulkForm.filter((field) => field.type !== 'notice').map((field) => field.name),
	specialHandling.name,
];

export const goBulkFields = routeSourceFields(
	false,
	goBulkForm,
	GO_BULK_FIELDS,
	additionalFields([specialHandling, extraBodyField]),
);

/** A GO_BULK body: the spec's fields of the chosen ends only, as given (never filled in). */
export function goBulkBody({ read, item }: BodyInput): IDataObject {
	const source =
		read('routeSource') === INPUT_FIELDS
			? item
			: Object.fromEntries(GO_BULK_FIELDS.map((field) => [field, read(field)]));
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const body = pick({ ...source, ...compact(additional) }, GO_BULK_FIELDS);
	for (const side of SIDES) {
		const viaHub = body[`${side}Method`] === ENDS[side].hub;
		for (const field of viaHub ? ['Address', 'Latitude', 'Longitude'] : ['HubId']) {
			delete body[`${side}${field}`];
		}
	}
	return body;
}

/** A GO_BULK quote request's ends (a hub for a hub method), and the bounds of numbers given. */
export function goBulkCheck(body: IDataObject): Problem | undefined {
	return (
		validateEnds(body) ??
		firstProblem(
			['quantity', 'pickupLatitude', 'dropoffLatitude', 'pickupLongitude', 'dropoffLongitude'].map(
				(field) => (body[field] === undefined ? undefined : checkNumber(body[field], field)),
			),
		)
	);
}
