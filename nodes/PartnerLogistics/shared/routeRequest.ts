import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from './body';
import { buildRoute, buildRouteOptions, routeFromItem } from './routeBody';
import { fail, required, routeMismatch, validateRoute } from './validate';

/** The field of a quote's output that carries what the quote was priced for. */
export const QUOTED_ROUTE = 'quotedRoute';

/** Route values typed in the editor or mapped by expressions (the default). */
export const DEFINE = 'define';
/** Route values read off the incoming item's own fields, under the API's names. */
export const INPUT_FIELDS = 'inputFields';
/** Booking only: the route the incoming Quote › Create item was priced for. */
export const FROM_QUOTE = 'fromInput';

/** The route and options of an item, from the form or from the item's own fields. */
function routeOf({ read, item }: BodyInput): IDataObject {
	const route = read('routeSource') === INPUT_FIELDS ? routeFromItem(item) : buildRoute(read);
	return { ...route, ...buildRouteOptions((read('additionalFields') ?? {}) as IDataObject) };
}

/** Body of Quote › Create: the chosen route form, validated. */
export function quoteBody(input: BodyInput): IDataObject {
	const body = routeOf(input);
	const problem = validateRoute(body);
	if (problem) fail(problem);
	return body;
}

/**
 * Output of Quote › Create: the API's quote untouched, plus what it was priced for, so Booking ›
 * Create can repeat it exactly (the spec demands the same route).
 */
export function withQuotedRoute(record: IDataObject, sent: IDataObject): IDataObject {
	return { ...record, [QUOTED_ROUTE]: record[QUOTED_ROUTE] ?? sent };
}

/**
 * Body of Booking › Create. The route comes from the incoming quote item (default), the fields
 * or the item's own fields; a route that differs from the incoming quote's is stopped before
 * sending. Quote IDs compare as text, so a numeric quoteId is checked like any other.
 */
export function bookingBody(input: BodyInput): IDataObject {
	const { read, item } = input;
	const quoteId = String(read('quoteId') ?? '').trim();
	if (!quoteId) fail(required('quoteId', quoteId));

	const quoted = item[QUOTED_ROUTE];
	const hasQuoted = !!quoted && typeof quoted === 'object' && !Array.isArray(quoted);
	const sameQuote = item.quoteId !== undefined && String(item.quoteId).trim() === quoteId;
	let route: IDataObject;
	if ((read('routeSource') ?? FROM_QUOTE) === FROM_QUOTE) {
		if (!hasQuoted) {
			fail({
				field: QUOTED_ROUTE,
				value: quoted,
				rule: 'is missing from the input item. Put this node right after Quote › Create (or keep that output through the nodes between), or set Route to "Define Below"',
			});
		}
		if (item.quoteId !== undefined && !sameQuote) {
			fail({
				field: 'quoteId',
				value: quoteId,
				rule: `is not the quote of the input item (${String(item.quoteId)}), whose route would be sent`,
			});
		}
		route = {
			...(quoted as IDataObject),
			...buildRouteOptions((read('additionalFields') ?? {}) as IDataObject),
		};
	} else {
		route = routeOf(input);
		if (hasQuoted && sameQuote) {
			const mismatch = routeMismatch(route, quoted as IDataObject);
			if (mismatch) fail(mismatch);
		}
	}
	const body = { ...route, quoteId };
	const problem = validateRoute(body);
	if (problem) fail(problem);
	return body;
}
