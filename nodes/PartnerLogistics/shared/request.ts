import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { retryDelayMs } from './retry';
import { readListPage, toItems } from './response';

/**
 * n8n sends all items of a node at once, so under a rate limit of N per second each round of
 * retries gets about N more through: 10 rounds carry a batch of about 10 × N (bench/rateLimit.ts).
 */
export const DEFAULT_MAX_RETRIES = 10;
/** Operations that answer with a list: one item per record, also when it comes wrapped. */
const LIST_OPERATIONS = ['getAll', 'getTrucks'];
/** A safety stop for Return All, should an API keep handing out cursors. */
const MAX_PAGES = 1000;

/**
 * Wraps every request of the node. n8n's declarative engine has one hook around the HTTP call,
 * `requestOperations.pagination`; each operation turns it on (`send.paginate`), so this is where
 * 429/503 are retried (same options, so the same Idempotency-Key), where responses become items
 * and where Return All follows a cursor when a list response reveals one.
 */
export async function sendRequest(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	// Each output item names the input item it came from, so $('Node').item works downstream also
	// when failed items go to the error output (n8n cannot infer the pairing with two outputs).
	const pairedItem = { item: this.getItemIndex() };
	const items = await itemsOf(this, requestData);
	return items.map((item) => ({ ...item, pairedItem }));
}

async function itemsOf(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const maxRetries = Number(options.maxRetries ?? DEFAULT_MAX_RETRIES);
	const send = async (data: DeclarativeRestApiSettings.ResultOptions) =>
		await withRetries(context, async () => await context.makeRoutingRequest(data), maxRetries);

	if (!LIST_OPERATIONS.includes(context.getNodeParameter('operation') as string)) {
		return toItems(await send(requestData));
	}
	if (context.getNodeParameter('returnAll', false) !== true) {
		const [first] = await send(requestData);
		return readListPage(first?.json).items.map((json) => ({ json }));
	}

	const all: INodeExecutionData[] = [];
	const seen = new Set<string>();
	let data = requestData;
	for (let page = 0; page < MAX_PAGES; page++) {
		const [first] = await send(data);
		const { items, cursor } = readListPage(first?.json);
		all.push(...items.map((json) => ({ json })));
		if (cursor === undefined || seen.has(cursor)) break;
		seen.add(cursor);
		const qs = { ...(data.options.qs ?? {}), cursor };
		data = { ...data, options: { ...data.options, qs } };
	}
	return all;
}

async function withRetries<T>(
	context: IExecutePaginationFunctions,
	attempt: () => Promise<T>,
	maxRetries: number,
): Promise<T> {
	for (let retry = 0; ; retry++) {
		try {
			return await attempt();
		} catch (error) {
			const delay =
				error instanceof NodeApiError
					? retryDelayMs({
							status: Number(error.httpCode),
							retryAfter: error.context.retryAfter as string | undefined,
							attempt: retry,
							maxRetries,
						})
					: null;
			if (delay === null) throw finalError(context, error, retry);
			await sleep(delay);
		}
	}
}

/** The error to stop with: n8n's own error types pass, anything else is wrapped as an API error. */
function finalError(context: IExecutePaginationFunctions, error: unknown, retries: number) {
	if (error instanceof NodeOperationError) return error;
	const apiError =
		error instanceof NodeApiError
			? error
			: new NodeApiError(context.getNode(), error as JsonObject, {
					itemIndex: context.getItemIndex(),
				});
	if (retries > 0) {
		const note = `Gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}.`;
		apiError.description = [apiError.description, note].filter(Boolean).join(' ');
	}
	return apiError;
}
