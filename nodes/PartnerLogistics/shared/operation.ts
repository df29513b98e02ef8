import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BodyBuilder, BodyCheck } from './body';
import type { ParameterReader } from './routeBody';

/** Everything the pipeline needs to know about one operation, in one declaration. */
export interface OperationSpec {
	name: string;
	value: string;
	/** Sentence case, shown in the node picker: "Create a booking". */
	action: string;
	description: string;
	/** GET operations only read: they send no body and no Idempotency-Key. */
	method: 'GET' | 'POST';
	/** Path after the credential's base URL; `{name}` stands for the path id parameter `name`. */
	path: string;
	/** Builds the JSON body of a POST from the item; `check` runs on the whole body. */
	body?: BodyBuilder;
	check?: BodyCheck;
	/** Query parameters of a GET. */
	query?: (read: ParameterReader) => IDataObject;
	/** The answer is a list: one item per record, `limit`/Return All apply. */
	list?: boolean;
	/** The capability a 403 means the key lacks (spec: Authentication). */
	capability?: string;
	/** A field the answer must carry to count as a success (a quote without quoteId is not one). */
	requires?: string;
	/** Shapes a successful record for the output, given the body that was sent. */
	output?: (record: IDataObject, sent: IDataObject) => IDataObject;
	/** The canvas subtitle, when "<name> <resource name>" does not read well. */
	subtitle?: string;
}

/** One resource: its operations, the default one, and the fields its operations show. */
export interface ResourceSpec {
	/** As the Resource picker shows it. */
	displayName: string;
	value: string;
	description: string;
	defaultOperation: string;
	operations: OperationSpec[];
	fields: INodeProperties[];
}

export const isReadOnly = (spec: OperationSpec) => spec.method === 'GET';

/** The path ids an operation needs, in path order: `/cases/{caseId}/close` -> ['caseId']. */
export function pathIds(path: string): string[] {
	return [...path.matchAll(/\{(\w+)\}/g)].map(([, id]) => id);
}

/** The resource's operation picker followed by its fields: what the node description spreads. */
export function resourceProperties(resource: ResourceSpec): INodeProperties[] {
	const { defaultOperation } = resource;
	const options: INodePropertyOptions[] = resource.operations.map((spec) => ({
		name: spec.name,
		value: spec.value,
		action: spec.action,
		description: spec.description,
	}));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options,
			default: defaultOperation,
		},
		...resource.fields,
	];
}

/** The operation the node's Resource and Operation pickers select. */
export function selectedOperation(
	context: IExecuteFunctions,
	resources: ResourceSpec[],
): { resource: string; spec: OperationSpec } {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operation = context.getNodeParameter('operation', 0) as string;
	const spec = resources
		.find(({ value }) => value === resource)
		?.operations.find(({ value }) => value === operation);
	if (!spec) {
		throw new NodeOperationError(
			context.getNode(),
			`This version of the Partner Logistics node has no operation "${operation}" for the resource "${resource}"`,
			{ description: 'Open the node and choose the Resource and Operation again.' },
		);
	}
	return { resource, spec };
}

/** The Resource picker. */
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

/** The canvas subtitle in words ("Create Quote", "Get Many Hubs"), as an n8n expression. */
export function subtitleExpression(resources: ResourceSpec[]): string {
	const words = Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((spec) => [
				`${resource.value}:${spec.value}`,
				spec.subtitle ?? `${spec.name} ${resource.displayName}`,
			]),
		),
	);
	return `={{ ${JSON.stringify(words)}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}

/** The operations that only read: their values, for options hidden on them. */
export function readOnlyOperationValues(resources: ResourceSpec[]): string[] {
	const specs = resources.flatMap((resource) => resource.operations);
	return [...new Set(specs.filter(isReadOnly).map((spec) => spec.value))];
}
