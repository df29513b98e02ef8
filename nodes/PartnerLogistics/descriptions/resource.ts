import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isReadOnly, type ResourceSpec } from '../pipeline/operation';

/** A resource's Operation picker, then its operations' fields, shown only when chosen (here). */
export function resourceProperties(resource: ResourceSpec): INodeProperties[] {
	const { defaultOperation } = resource;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: resource.operations.map(({ name, value, action, description }) => ({
				name,
				value,
				action,
				description,
			})),
			default: defaultOperation,
		},
		...resource.operations.flatMap((spec) =>
			updateDisplayOptions(
				{ show: { resource: [resource.value], operation: [spec.value] } },
				spec.fields ?? [],
			),
		),
	];
}

export function resourcePicker(
	resources: ResourceSpec[],
	defaultResource: string,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resources
			.map(({ displayName, value, description }) => ({ name: displayName, value, description }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultResource,
	};
}

/**
 * The canvas subtitle in words ("Create Quote", "Get Many Hubs"), as an n8n expression; "Dry
 * run:" before it while Options › Dry Run is on, so a workflow is not published with it unseen.
 */
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

/** The operations that only read: their values, for options hidden on them. */
export function readOnlyOperationValues(resources: ResourceSpec[]): string[] {
	const specs = resources.flatMap((resource) => resource.operations);
	return [...new Set(specs.filter(isReadOnly).map((spec) => spec.value))];
}
