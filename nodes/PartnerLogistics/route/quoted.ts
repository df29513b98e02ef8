import type { IDataObject } from 'n8n-workflow';

import { required, type BodyInput, type Problem } from '../pipeline/operation';
import { buildRoute, buildRouteOptions, routeFromItem } from './body';
import { routeMismatch, validateRoute } from './rules';
import { FROM_QUOTE, INPUT_FIELDS } from './source';

/** The field of a quote's output that carries what the quote was priced for. */
export const QUOTED_ROUTE = 'quotedRoute';

/** The route and options of an item, from the form or from the item's own fields. */
function routeOf({ read, item }: BodyInput): IDataObject {
	const route = read('routeSource') === INPUT_FIELDS ? routeFromItem(item) : buildRoute(read);
	return { ...route, ...buildRouteOptions((read('additionalFields') ?? {}) as IDataObject) };
}

/** Body of Quote › Create: the route of the chosen form, checked by `validateRoute`. */
export const quoteBody = routeOf;

/**
 * Output of Quote › Create: the API's quote untouched, plus what it was priced for, so Booking ›
 * Create can repeat it exactly (the spec demands the same route).
 */
export function withQuotedRoute(record: IDataObject, sent: IDataObject): IDataObject {
	return { ...record, [QUOTED_ROUTE]: record[QUOTED_ROUTE] ?? sent };
}

/** The incoming item's quoted route, when it is a Quote › Create output. */
function quotedRouteOf(item: IDataObject): IDataObject | undefined {
	const quoted = item[QUOTED_ROUTE];
	return !!quoted && typeof quoted === 'object' && !Array.isArray(quoted)
		? (quoted as IDataObject)
		: undefined;
}

const fromQuote = ({ read }: BodyInput) => (read('routeSource') ?? FROM_QUOTE) === FROM_QUOTE;

/**
 * Body of Booking › Create: the quote id and the route, taken from the incoming quote item (the
 * default), the fields, or the item's own fields. Quote IDs are sent as text.
 */
export function bookingBody(input: BodyInput): IDataObject {
	const quoteId = String(input.read('quoteId') ?? '').trim();
	const route = fromQuote(input)
		? {
				...quotedRouteOf(input.item),
				...buildRouteOptions((input.read('additionalFields') ?? {}) as IDataObject),
			}
		: routeOf(input);
	return { ...route, quoteId };
}

/**
 * A booking must book the route its quote was priced for: the quote id is required, the quoted
 * route must be at hand (Same as the Incoming Quote) and be this quote's, and a route typed or
 * read again must equal the incoming quote's. Then the route's own rules.
 */
export function bookingCheck(body: IDataObject, input: BodyInput): Problem | undefined {
	const { quoteId } = body;
	if (!quoteId) return required('quoteId', quoteId);
	const { item } = input;
	const quoted = quotedRouteOf(item);
	const sameQuote = item.quoteId !== undefined && String(item.quoteId).trim() === quoteId;
	if (fromQuote(input)) {
		if (!quoted) {
			return {
				field: QUOTED_ROUTE,
				label: 'Quoted Route',
				value: item[QUOTED_ROUTE],
				rule: 'is missing from the input item. Put this node right after Quote › Create (or keep that output through the nodes between), or set Route to "Define Below"',
			};
		}
		if (item.quoteId !== undefined && !sameQuote) {
			return {
				field: 'quoteId',
				value: quoteId,
				rule: `is not the quote of the input item (${String(item.quoteId)}), whose route would be sent`,
			};
		}
	} else if (quoted && sameQuote) {
		const mismatch = routeMismatch(body, quoted);
		if (mismatch) return mismatch;
	}
	return validateRoute(body);
}
