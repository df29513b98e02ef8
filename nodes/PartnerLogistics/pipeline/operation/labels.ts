import type { INodeProperties } from 'n8n-workflow';

import { HIDDEN, isGiven, type Problem } from '../problem';

/** Field labels as the editor shows them, by API name, from an operation's own form. */
export type Labels = Map<string, string>;

/** The labels of a form's fields, in collections too, so a message names a field as shown. */
export function labelsOf(fields: INodeProperties[], labels: Labels = new Map()): Labels {
	for (const field of fields) {
		if (field.type !== 'notice' && !labels.has(field.name))
			labels.set(field.name, field.displayName);
		for (const option of field.options ?? []) {
			if ('values' in option) labelsOf(option.values, labels);
			else if ('displayName' in option && 'type' in option) labelsOf([option], labels);
		}
	}
	return labels;
}

/** "Pickup Latitude (pickupLatitude)", "Stop 2 Latitude (stops[1].latitude)", or the API name. */
export function fieldName(problem: Pick<Problem, 'field' | 'label'>, labels: Labels): string {
	const { field } = problem;
	const stop = /^stops\[(\d+)\]\.(\w+)$/.exec(field);
	const label = stop
		? labels.has(stop[2]) && `Stop ${Number(stop[1]) + 1} ${labels.get(stop[2])}`
		: (problem.label ?? labels.get(field.startsWith('extraBody.') ? 'extraBody' : field));
	return label ? `${label} (${field})` : field;
}

/**
 * "Item 2 (externalReference ORD-7): <field as labelled> <rule>, got <value>", items from 1; with
 * no item (a poll's settings) it starts at the field.
 */
export function describeProblem(
	problem: Problem,
	labels: Labels,
	itemIndex: number | undefined,
	reference?: string,
): string {
	const item =
		itemIndex === undefined ? '' : `Item ${itemIndex + 1}${reference ? ` (${reference})` : ''}: `;
	const named = `${item}${fieldName(problem, labels)} ${problem.rule}`;
	if (problem.value === HIDDEN) return named;
	const shown = !isGiven(problem.value)
		? 'nothing'
		: typeof problem.value === 'string'
			? `"${problem.value}"`
			: JSON.stringify(problem.value);
	return `${named}, got ${shown}`;
}
