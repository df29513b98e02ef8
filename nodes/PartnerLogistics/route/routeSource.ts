import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsField, type Choice } from '../descriptions/fields';

const DEFINE = 'define';
export const INPUT_FIELDS = 'inputFields';
/** Booking only: the incoming quote's route (its value 'fromInput' is in saved workflows). */
export const FROM_QUOTE = 'fromInput';

/** A route's source, the names Map From Input Fields reads (shown, not guessed), form, options. */
export function routeSourceFields(
	fromQuote: boolean,
	form: INodeProperties[],
	inputFields: string[],
	additional: INodeProperties,
): INodeProperties[] {
	const sameAsQuote: Choice = [
		'Same as the Incoming Quote',
		FROM_QUOTE,
		'Send the route the incoming Quote › Create item was priced for (its quotedRoute)',
	];
	const source = optionsField(
		'routeSource',
		'Route',
		fromQuote
			? 'The API books only the exact route that was quoted'
			: 'Type the route, or read it from the incoming items',
		[
			...(fromQuote ? [sameAsQuote] : []),
			[
				'Define Below',
				DEFINE,
				fromQuote
					? 'Enter the route again, or map it with expressions; it must match the quoted route'
					: 'Fill in the fields, or map them from the input with expressions',
			],
			[
				'Map From Input Fields',
				INPUT_FIELDS,
				'Read the route from fields of the incoming item named as in the API, e.g. a sheet or CSV of orders',
			],
		],
		{ noDataExpression: true },
	);
	return [
		source,
		{
			displayName: `Each incoming item is read for these fields, under these exact names: ${inputFields.join(', ')}. Other fields of the item are not sent. A missing or out-of-range value fails that item with the rule; fields set under Additional Fields replace the item's.`,
			name: 'inputFieldsNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { routeSource: [INPUT_FIELDS] } },
		},
		...updateDisplayOptions({ show: { routeSource: [DEFINE] } }, form),
		additional,
	];
}
