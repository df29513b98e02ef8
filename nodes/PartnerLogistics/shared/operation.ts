import type {
	INodeProperties,
	INodePropertyOptions,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';

import { requireIds, sendBody, type BodyBuilder, type BodyCheck } from './body';
import { throwOnApiError } from './errors';
import { setIdempotencyKey } from './idempotency';

export interface OperationSpec {
	name: string;
	value: string;
	/** Sentence case, shown in the node picker: "Create a booking". */
	action: string;
	description: string;
	method: 'GET' | 'POST';
	/** Path after the credential's base URL; `{name}` stands for the path id parameter `name`. */
	path: string;
	/** Builds the JSON body from the parameters (POST); checked by `check` before sending. */
	body?: BodyBuilder;
	check?: BodyCheck;
	/** Operation-specific preSend steps, for bodies that need more than the parameters. */
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
	const ids = [...spec.path.matchAll(/\{(\w+)\}/g)].map(([, id]) => id);
	const preSend = [
		...(ids.length ? [requireIds(ids)] : []),
		...(spec.body ? [sendBody(spec.body, spec.check)] : []),
		...(spec.preSend ?? []),
		setIdempotencyKey,
	];
	return {
		name: spec.name,
		value: spec.value,
		action: spec.action,
		description: spec.description,
		routing: {
			request: { method: spec.method, url: urlExpression(spec.path) },
			send: { paginate: true, preSend },
			output: { postReceive: [throwOnApiError, ...(spec.postReceive ?? [])] },
		},
	};
}

/** `/cases/{caseId}` -> an n8n expression that inserts the trimmed, URL-encoded parameter. */
function urlExpression(path: string): string {
	if (!path.includes('{')) return path;
	return `=${path.replace(
		/\{(\w+)\}/g,
		(_, id: string) => `{{ encodeURIComponent(String($parameter["${id}"]).trim()) }}`,
	)}`;
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
