import type { ResourceSpec } from '../../shared/operation';
import { paymentBody, paymentCheck } from '../../shared/payment';
import { bookingBody } from '../../shared/routeRequest';
import { bookingCreateDescription } from './create';
import { bookingPayDescription } from './pay';

export const bookingResource: ResourceSpec = {
	displayName: 'Booking',
	value: 'booking',
	description: 'Book a quoted CLICK, GO_LIGHT or EXPRESS delivery, and pay for it',
	defaultOperation: 'create',
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a booking',
			description: 'Book a quoted delivery; the route must be the one the quote was priced for',
			method: 'POST',
			path: '/partner-api/bookings',
			body: bookingBody,
		},
		{
			name: 'Pay',
			value: 'pay',
			action: 'Pay for a booking',
			description: 'Pay a booking with a saved card (direct bookings cannot use credit)',
			method: 'POST',
			path: '/partner-api/bookings/{bookingId}/payment',
			body: paymentBody({ credit: false, stage: false }),
			check: paymentCheck(['SAVED_CARD']),
		},
	],
	fields: [...bookingCreateDescription, ...bookingPayDescription],
};
