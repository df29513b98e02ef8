import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFields } from '../descriptions/fields';
import { ROUTE_FIELDS, ROUTE_OPTION_FIELDS } from './body';
import { routeFields } from './form';
import { routeOptionFields } from './optionalFields';

/** Route values typed in the editor or mapped by expressions (the default). */
export const DEFINE = 'define';
/** Route values read off the incoming item's own fields, under the API's names. */
export const INPUT_FIELDS = 'inputFields';
/** Booking only: the route the incoming Quote › Create item was priced for ('fromInput': saved). */
export const FROM_QUOTE = 'fromInput';

/** Where the route of a quote, booking or quote request comes from. */
export const routeSourceField = (fromQuote: boolean): INodeProperties => {
	const defaultSource = fromQuote ? FROM_QUOTE : DEFINE;
	return {
		displayName: 'Route',
		name: 'routeSource',
		type: 'options',
		noDataExpression: true,
		options: [
			...(fromQuote
				? [
						{
							name: 'Same as the Incoming Quote',
							value: FROM_QUOTE,
							description:
								'Send the route the incoming Quote › Create item was priced for (its quotedRoute)',
						},
					]
				: []),
			{
				name: 'Define Below',
				value: DEFINE,
				description: fromQuote
					? 'Enter the route again, or map it with expressions; it must match the quoted route'
					: 'Fill in the fields, or map them from the input with expressions',
			},
			{
				name: 'Map From Input Fields',
				value: INPUT_FIELDS,
				description:
					'Read the route from fields of the incoming item named as in the API, e.g. a sheet or CSV of orders',
			},
		],
		default: defaultSource,
		description: fromQuote
			? 'The API books only the exact route that was quoted'
			: 'Type the route, or read it from the incoming items',
	};
};

/** What Map From Input Fields reads, shown in the form so nobody has to guess the names. */
export const inputFieldsNotice = (fields: string[]): INodeProperties => ({
	displayName: `Each incoming item is read for these fields, under these exact names: ${fields.join(', ')}. Other fields of the item are not sent. A missing or out-of-range value fails that item with the rule; fields set under Additional Fields replace the item's.`,
	name: 'inputFieldsNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { routeSource: [INPUT_FIELDS] } },
});

/** A direct quote or booking's route: its source, the names it reads, its form, its options. */
export function directRouteFields(
	fromQuote: boolean,
	additionalFieldsDescription: string,
): INodeProperties[] {
	return [
		routeSourceField(fromQuote),
		inputFieldsNotice([...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS]),
		...updateDisplayOptions({ show: { routeSource: [DEFINE] } }, routeFields),
		additionalFields(routeOptionFields, additionalFieldsDescription),
	];
}
