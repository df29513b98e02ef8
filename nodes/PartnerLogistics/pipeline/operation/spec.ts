import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fitMessage } from '../../shared/message';
import type { Problem } from '../problem';

/** What an operation may look at: the item's parameters and the incoming item itself. */
export interface BodyInput {
	/** Reads one parameter of the current item, undefined when it is not set. */
	read: (name: string) => IDataObject[string];
	/** The JSON of the incoming item (the quote to book, a CSV row of route fields). */
	item: IDataObject;
}

/** Everything about one operation, in one declaration: its form, its request and its answer. */
export interface OperationSpec {
	name: string;
	value: string;
	/** Sentence case, for the node picker and as an AI tool's description: "Create a booking". */
	action: string;
	description: string;
	/** The operation's fields; the resource shows them when this operation is chosen. */
	fields?: INodeProperties[];
	/** GET operations only read: they send no body and no Idempotency-Key. */
	method: 'GET' | 'POST';
	/** Path after the credential's base URL; `{name}` stands for the path id parameter `name`. */
	path: string;
	/** Builds the JSON body of a POST from the item; `check` judges the complete body. */
	body?: (input: BodyInput) => IDataObject;
	/** Judges the complete body (Extra Body Fields merged): the first problem, or none. */
	check?: (body: IDataObject, input: BodyInput) => Problem | undefined;
	query?: (read: BodyInput['read']) => IDataObject;
	/** The answer is a list: one item per record, `limit`/Return All apply. */
	list?: boolean;
	/** What an action done once acts on (path ids or body fields): its default key is theirs. */
	referent?: string[];
	/** The capability a 403 means the key lacks (spec: Authentication). */
	capability?: string;
	/** The ids a success's answer carries for a later step (`quoteId`): a preview's stand-ins. */
	answers?: string[];
	/** A field the answer must carry to count as a success (a quote without quoteId is not one). */
	requires?: string;
	/** Shapes a successful record for the output, given the body that was sent. */
	output?: (record: IDataObject, sent: IDataObject) => IDataObject;
	/** How a message names the item besides its number, e.g. "externalReference ORD-7". */
	reference?: (input: BodyInput) => string | undefined;
	/** The canvas subtitle, when "<name> <resource name>" does not read well. */
	subtitle?: string;
}

/** One resource: its operations, in the order the Operation picker lists them. */
export interface ResourceSpec {
	displayName: string;
	value: string;
	description: string;
	/** The operation chosen at first, when not the first one listed. */
	defaultOperation?: string;
	operations: OperationSpec[];
}

export const isReadOnly = (spec: OperationSpec) => spec.method === 'GET';

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
		const { message, description } = fitMessage(
			`This version of the Partner Logistics node has no operation "${operation}" for the resource "${resource}"`,
			'Open the node and choose the Resource and Operation again.',
		);
		throw new NodeOperationError(context.getNode(), message, { description });
	}
	return { resource, spec };
}
