import type { INodeProperties } from 'n8n-workflow';

import { operation, operationPicker } from '../../shared/operation';
import { paymentBody, paymentCheck } from '../../shared/payment';
import { sendBooking } from '../../shared/routeRequest';
import { bookingCreateDescription } from './create';
import { bookingPayDescription } from './pay';

export const bookingDescription: INodeProperties[] = [
	operationPicker(
		'booking',
		[
			operation({
				name: 'Create',
				value: 'create',
				action: 'Create a booking',
				description: 'Book a quoted delivery; the route must be the one the quote was priced for',
				method: 'POST',
				path: '/partner-api/bookings',
				preSend: [sendBooking],
			}),
			operation({
				name: 'Pay',
				value: 'pay',
				action: 'Pay for a booking',
				description: 'Pay a booking with a saved card (direct bookings cannot use credit)',
				method: 'POST',
				path: '/partner-api/bookings/{bookingId}/payment',
				body: paymentBody({ credit: false, stage: false }),
				check: paymentCheck(['SAVED_CARD']),
			}),
		],
		'create',
	),
	...bookingCreateDescription,
	...bookingPayDescription,
];
