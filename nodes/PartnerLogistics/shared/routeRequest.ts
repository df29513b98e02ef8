import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { assertValid, collection, parameterReader } from './parameters';
import { buildRoute, buildRouteOptions } from './routeBody';
import { routeMismatch, validateRoute } from './validate';

/** The field of a quote's output that carries what the quote was priced for. */
export const QUOTED_ROUTE = 'quotedRoute';

/**
 * The body each item's quote was sent with, for its postReceive: n8n runs both steps of an item
 * with the same context object, and re-reading the parameters would resolve every expression again.
 */
const sentQuotes = new WeakMap<IExecuteSingleFunctions, IDataObject>();

function quoteBody(context: IExecuteSingleFunctions): IDataObject {
	return {
		...buildRoute(parameterReader(context)),
		...buildRouteOptions(collection(context, 'additionalFields')),
	};
}

/** preSend of Quote › Create: the body of the chosen route form, validated. */
export async function sendQuote(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = quoteBody(this);
	assertValid(this, validateRoute(body));
	sentQuotes.set(this, body);
	return { ...requestOptions, body };
}

/**
 * postReceive of Quote › Create: the output keeps the API's quote untouched and adds what it was
 * priced for, so Booking › Create can repeat it exactly (the spec demands the same route).
 */
export async function attachQuotedRoute(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const quotedRoute = sentQuotes.get(this) ?? quoteBody(this);
	return items.map((item) =>
		item.json && typeof item.json === 'object' && !Array.isArray(item.json)
			? { ...item, json: { ...item.json, [QUOTED_ROUTE]: item.json[QUOTED_ROUTE] ?? quotedRoute } }
			: item,
	);
}

/**
 * preSend of Booking › Create. The route comes from the incoming quote item (default) or from the
 * fields; a defined route that differs from the incoming quote's is stopped before sending.
 */
export async function sendBooking(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const read = parameterReader(this);
	const quoteId = String(read('quoteId') ?? '').trim();
	assertValid(
		this,
		quoteId ? undefined : { field: 'quoteId', value: quoteId, rule: 'is required' },
	);

	const input = this.getInputData()?.json ?? {};
	const quoted = input[QUOTED_ROUTE];
	const hasQuoted = !!quoted && typeof quoted === 'object' && !Array.isArray(quoted);
	let route: IDataObject;
	if (read('routeSource') === 'define') {
		route = buildRoute(read);
		if (hasQuoted && input.quoteId === quoteId) {
			assertValid(this, routeMismatch(route, quoted as IDataObject));
		}
	} else {
		assertValid(
			this,
			hasQuoted
				? undefined
				: {
						field: QUOTED_ROUTE,
						value: quoted,
						rule: 'is missing from the input item. Put this node right after Quote › Create (or keep that output through the nodes between), or set Route to "Define Below"',
					},
		);
		assertValid(
			this,
			input.quoteId === undefined || String(input.quoteId) === quoteId
				? undefined
				: {
						field: 'quoteId',
						value: quoteId,
						rule: `is not the quote of the input item (${String(input.quoteId)}), whose route would be sent`,
					},
		);
		route = quoted as IDataObject;
	}
	const body = { ...route, ...buildRouteOptions(collection(this, 'additionalFields')), quoteId };
	assertValid(this, validateRoute(body));
	return { ...requestOptions, body };
}
