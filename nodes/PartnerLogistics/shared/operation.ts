import type {
	INodeProperties,
	INodePropertyOptions,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { throwOnApiError } from './errors';
import { setIdempotencyKey } from './idempotency';

export interface OperationSpec {
	name: string;
	value: string;
	/** Sentence case, shown in the node picker: "Create a booking". */
	action: string;
	description: string;
	method: 'GET' | 'POST';
	/** Path after the credential's base URL, an n8n expression where it holds an id. */
	url: string;
	/** Operation-specific preSend steps (build and validate the body), before the Idempotency-Key. */
	preSend?: PreSendAction[];
	/** Operation-specific postReceive steps, after an error status became a NodeApiError. */
	postReceive?: PostReceiveAction[];
}

/**
 * One operation of the picker, with the routing every operation shares: its preSend steps then
 * the Idempotency-Key, the error mapping, and `paginate` so the node's request hook (retries,
 * items, Return All) wraps the call.
 */
export function operation(spec: OperationSpec): INodePropertyOptions {
	return {
		name: spec.name,
		value: spec.value,
		action: spec.action,
		description: spec.description,
		routing: {
			request: { method: spec.method, url: spec.url },
			send: { paginate: true, preSend: [...(spec.preSend ?? []), setIdempotencyKey] },
			output: { postReceive: [throwOnApiError, ...(spec.postReceive ?? [])] },
		},
	};
}

/** The operation picker of one resource. */
export function operationPicker(
	resource: string,
	operations: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations,
		default: defaultOperation,
	};
}
