import type { IDataObject } from 'n8n-workflow';

import type { BodyInput } from '../pipeline/operation';
import { required, type Problem } from '../pipeline/problem';
import { isObject } from '../shared/valueAt';
import { buildRoute, buildRouteOptions, routeFromItem } from './body';
import { routeMismatch, validateRoute } from './rules';
import { FROM_QUOTE, INPUT_FIELDS } from './routeSource';

/** The field of a quote's output that carries what the quote was priced for. */
export const QUOTED_ROUTE = 'quotedRoute';

const optionsOf = (read: BodyInput['read']) =>
	buildRouteOptions((read('additionalFields') ?? {}) as IDataObject);

/** Quote › Create's body, a route given anew for a booking: the form's or the item's, and options. */
export function quoteBody({ read, item }: BodyInput): IDataObject {
	const route = read('routeSource') === INPUT_FIELDS ? routeFromItem(item) : buildRoute(read);
	return { ...route, ...optionsOf(read) };
}

/** Quote › Create's output: the quote untouched, plus its route for Booking › Create to repeat. */
export function withQuotedRoute(record: IDataObject, sent: IDataObject): IDataObject {
	return { ...record, [QUOTED_ROUTE]: record[QUOTED_ROUTE] ?? sent };
}

/** The incoming item's quoted route, when it is a Quote › Create output. */
function quotedRouteOf(item: IDataObject): IDataObject | undefined {
	const quoted = item[QUOTED_ROUTE];
	return isObject(quoted) ? (quoted as IDataObject) : undefined;
}

const fromQuote = ({ read }: BodyInput) => (read('routeSource') ?? FROM_QUOTE) === FROM_QUOTE;

/** Booking › Create: the quote id (as text) and the route, from the incoming quote by default. */
export function bookingBody(input: BodyInput): IDataObject {
	const quoteId = String(input.read('quoteId') ?? '').trim();
	const route = fromQuote(input)
		? { ...quotedRouteOf(input.item), ...optionsOf(input.read) }
		: quoteBody(input);
	return { ...route, quoteId };
}

/**
 * A booking must book its quote's route (spec): Same as the Incoming Quote needs that quote's
 * quoted route; a route typed or read again must equal it. Then the route's own rules.
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
				rule: 'is missing from the input item',
				hint: 'Put this node right after Quote › Create (or keep that output through the nodes between), or set Route to "Define Below".',
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
