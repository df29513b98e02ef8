import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** Capabilities the spec names, by the operations that need them. */
const CAPABILITIES: Record<string, string> = {
	'supportCase.create': 'support:create',
	'supportCase.addComment': 'support:create',
	'supportCase.close': 'support:create',
	'supportCase.reopen': 'support:create',
	'supportCase.getAll': 'support:read',
	'supportCase.get': 'support:read',
};

export interface ApiErrorText {
	message: string;
	description: string;
}

/**
 * What the user reads when the API answers with an error status: what happened and what to do,
 * with the API's own message in the message and its whole error body kept in the description.
 * The spec does not show the error body's fields, so any JSON is accepted; `message` and `field`
 * are read when present.
 */
export function describeApiError(
	status: number,
	body: unknown,
	operation: { resource: string; operation: string },
): ApiErrorText {
	const { apiMessage, field } = readErrorBody(body);
	const said = apiMessage ? `: ${apiMessage.replace(/[.\s]+$/, '')}` : '';
	const description = `The API answered ${status} with: ${stringifyBody(body)}`;
	const key = `${operation.resource}.${operation.operation}`;
	let message: string;
	switch (true) {
		case status === 400:
			message = `The API refused the request as invalid (400)${said}${field ? ` [field: ${field}]` : ''}. Correct the value and run again.`;
			break;
		case status === 401:
			message =
				'The API key was refused (401). Open the Partner Logistics credential and paste the key again from the partner portal; it may have been rotated or revoked.';
			break;
		case status === 403: {
			const capability = CAPABILITIES[key];
			message = capability
				? `This API key lacks the capability ${capability} (403). Ask your Partner Logistics contact to grant ${capability} to the key, or use a credential whose key has it.`
				: `This API key is not allowed to do this (403)${said}. Ask your Partner Logistics contact which capability the key needs.`;
			break;
		}
		case status === 404:
			message = `Not found in your organization (404)${said}. Check the id: the API only shows resources that belong to the organization of this API key.`;
			break;
		case status === 409:
			message = `Conflict (409)${said}. Either this Idempotency-Key was already used for a different request (if you set Options › Idempotency Key, make it unique per action), or the resource is not in a state that allows this (for example an expired quote, or a case that is already closed).`;
			break;
		case status === 429:
			message = `The API is rate limiting this key (429)${said}. Raise Options › Max Retries, space the items with the node's Request Options › Batching, or send fewer items per run.`;
			break;
		case status >= 500:
			message = `The Partner Logistics API failed (${status})${said}. Try again later; a retry sends the same Idempotency-Key, so nothing is booked or paid twice.`;
			break;
		default:
			message = `The API answered ${status}${said}.`;
	}
	return { message, description };
}

function readErrorBody(body: unknown): { apiMessage?: string; field?: string } {
	if (typeof body === 'string') return { apiMessage: body.trim().slice(0, 300) || undefined };
	if (!body || typeof body !== 'object') return {};
	const record = body as Record<string, unknown>;
	const nested =
		record.error && typeof record.error === 'object'
			? (record.error as Record<string, unknown>)
			: undefined;
	const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
	return {
		apiMessage:
			text(record.message) ?? text(nested?.message) ?? text(record.error) ?? text(record.detail),
		field: text(record.field) ?? text(nested?.field),
	};
}

function stringifyBody(body: unknown): string {
	if (body === undefined || body === '') return '(no body)';
	return typeof body === 'string' ? body : JSON.stringify(body);
}

/** postReceive: turns an error status into a NodeApiError (requests run with ignoreHttpStatusErrors). */
export async function throwOnApiError(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (response.statusCode < 400) return items;
	const { message, description } = describeApiError(response.statusCode, response.body, {
		resource: this.getNodeParameter('resource') as string,
		operation: this.getNodeParameter('operation') as string,
	});
	const body =
		response.body && typeof response.body === 'object' && !Array.isArray(response.body)
			? (response.body as JsonObject)
			: ({ body: String(response.body ?? '') } as JsonObject);
	const error = new NodeApiError(this.getNode(), body, {
		message,
		description,
		httpCode: String(response.statusCode),
		itemIndex: this.getItemIndex(),
	});
	const retryAfter = response.headers?.['retry-after'];
	if (retryAfter !== undefined) error.context.retryAfter = String(retryAfter);
	throw error;
}
