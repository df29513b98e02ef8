import type { INodeProperties } from 'n8n-workflow';

/** A required ID, by default (as its hint says) the incoming item's field of the same name. */
export function idField(
	name: string,
	displayName: string,
	description: string,
	example: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: `={{ $json.${name} }}`,
		placeholder: `e.g. ${example}`,
		description,
		hint: `By default the incoming item's ${name} field. Type an ID, or map another field if the previous step names it differently.`,
	};
}

/** The operation's optional fields, in the one collection every operation names alike. */
export function additionalFields(
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		...(description === undefined ? {} : { description }),
		options,
	};
}

/** A label for operations whose path the published API documentation does not show. */
export const INFERRED_PATH =
	'Path not in the published API documentation: inferred from its pattern, confirm with your API contact';

/** Optional raw JSON merged into a body the spec does not show in full. */
export const extraBodyField: INodeProperties = {
	displayName: 'Extra Body Fields (JSON)',
	name: 'extraBody',
	type: 'json',
	default: '{}',
	description:
		'Further fields for the request body, as a JSON object, for fields the published API documentation does not show. A field set above cannot be changed here.',
	hint: 'e.g. {"reason": "Price too high"}',
};
