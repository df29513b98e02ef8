import type { OperationSpec } from '../../pipeline/operation';
import { quoteBody, withQuotedRoute } from '../../route/quoted';
import { externalReference } from '../../route/reference';
import { validateRoute } from '../../route/rules';
import { directRouteFields } from '../../route/routeSource';

export const quoteCreate: OperationSpec = {
	name: 'Create',
	value: 'create',
	action: 'Create a quote',
	description:
		'Price a CLICK, GO_LIGHT or EXPRESS delivery. The output carries the route it was priced for, ready for Booking › Create.',
	fields: directRouteFields(false, 'Optional fields of the quote'),
	method: 'POST',
	path: '/partner-api/booking-quotes',
	body: quoteBody,
	check: validateRoute,
	requires: 'quoteId',
	output: withQuotedRoute,
	reference: externalReference,
};
