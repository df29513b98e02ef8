import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsDescription } from '../pipeline';
import { isReadOnly, type ResourceSpec } from '../pipeline/operation';

/** The action node's form: the Resource picker, each Operation picker and fields, the Options. */
export function resourceProperties(
	resources: ResourceSpec[],
	defaultResource: string,
): INodeProperties[] {
	const specs = resources.flatMap((resource) => resource.operations);
	const readOnly = [...new Set(specs.filter(isReadOnly).map((spec) => spec.value))];
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources
				.map(({ displayName, value, description }) => ({ name: displayName, value, description }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultResource,
		},
		...resources.flatMap(operationProperties),
		...optionsDescription(readOnly),
	];
}

function operationProperties(spec: ResourceSpec): INodeProperties[] {
	const { value: resource, operations, defaultOperation = operations[0].value } = spec;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map(({ name, value, action, description }) => ({
				name,
				value,
				action,
				description,
			})),
			default: defaultOperation,
		},
		...operations.flatMap((spec) =>
			updateDisplayOptions(
				{ show: { resource: [resource], operation: [spec.value] } },
				spec.fields ?? [],
			),
		),
	];
}

/** The canvas subtitle, "Dry run: " first while Dry Run is on, so no one publishes it unseen. */
export function subtitleExpression(resources: ResourceSpec[]): string {
	const words = Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((spec) => [
				`${resource.value}:${spec.value}`,
				spec.subtitle ?? `${spec.name} ${resource.displayName}`,
			]),
		),
	);
	// An expression decides per run: the editor only knows that one does.
	const dryRun =
		'(($parameter["options"] || {})["dryRun"] === true ? "Dry run: " : typeof ($parameter["options"] || {})["dryRun"] === "string" ? "Dry run by expression: " : "")';
	return `={{ ${dryRun} + (${JSON.stringify(words)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"]) }}`;
}
