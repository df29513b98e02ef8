import { idField } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { bookingBody, bookingCheck } from '../../route/quoted';
import { externalReference } from '../../route/reference';
import { directRouteFields } from '../../route/routeSource';

export const bookingCreate: OperationSpec = {
	name: 'Create',
	value: 'create',
	action: 'Create a booking',
	description: 'Book a quoted delivery; the route must be the one the quote was priced for',
	fields: [
		idField('quoteId', 'Quote ID', 'The quote to book; it must not have expired', 'qt_123'),
		...directRouteFields(
			true,
			'Optional fields; they replace the ones of the quoted route or the incoming item',
		),
	],
	method: 'POST',
	path: '/partner-api/bookings',
	body: bookingBody,
	referent: ['quoteId'],
	check: bookingCheck,
	reference: externalReference,
};
