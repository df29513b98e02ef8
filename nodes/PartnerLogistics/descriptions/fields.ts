import type { INodeProperties } from 'n8n-workflow';

import type { OperationSpec } from '../pipeline/operation';

/** A text field, empty until set (an empty field is not sent), with its example as placeholder. */
export function textField(
	name: string,
	displayName: string,
	description: string,
	example: string,
	more: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: `e.g. ${example}`,
		description,
		...more,
	};
}

/** An option: its label, its value and, where the label does not say it, what it does. */
export type Choice = readonly [name: string, value: string, description?: string];

export function optionsField(
	name: string,
	displayName: string,
	description: string,
	choices: Choice[],
	more: Partial<INodeProperties> = {},
): INodeProperties {
	const [[, first]] = choices;
	return {
		displayName,
		name,
		type: 'options',
		options: choices.map(([name, value, description]) =>
			description === undefined ? { name, value } : { name, value, description },
		),
		default: first,
		description,
		...more,
	};
}

/** A required ID, by default (as its hint says) the incoming item's field of the same name. */
export const idField = (name: string, displayName: string, description: string, example: string) =>
	textField(name, displayName, description, example, {
		required: true,
		default: `={{ $json.${name} }}`,
		hint: `By default the incoming item's ${name} field. Type an ID, or map another field if the previous step names it differently.`,
	});

/** An enumeration the spec shows one value of: that value is the default, any other is accepted. */
export const knownValueField = (
	name: string,
	displayName: string,
	description: string,
	known: string,
) =>
	textField(name, displayName, description, known, {
		default: known,
		hint: `${known} is the value the API documentation names; any other value the API accepts can be typed`,
	});

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

/** A POST on what `id` names whose body the spec does not show: Extra Body Fields only, once. */
export const extraBodyAction = (
	id: INodeProperties,
	path: string,
): Pick<OperationSpec, 'fields' | 'method' | 'path' | 'body' | 'referent'> => ({
	fields: [id, additionalFields([extraBodyField])],
	method: 'POST',
	path,
	body: () => ({}),
	referent: [id.name],
});
