import type { OperationSpec } from '../../pipeline/operation';
import { quoteBody, withQuotedRoute } from '../../route/body';
import { directRouteFields } from '../../route/form';
import { validateRoute } from '../../route/rules';

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
	answers: ['quoteId'],
	output: withQuotedRoute,
};
