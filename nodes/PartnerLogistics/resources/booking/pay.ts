import { additionalFields, extraBodyField, idField } from '../../descriptions/fields';
import { paymentBody, paymentCheck, paymentFields } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';

/** Direct bookings are paid with a saved card only. */
const kind = { credit: false, stage: false };

export const bookingPay: OperationSpec = {
	name: 'Pay',
	value: 'pay',
	action: 'Pay for a booking',
	description: 'Pay a booking with a saved card (direct bookings cannot use credit)',
	fields: [
		idField('bookingId', 'Booking ID', 'The booking to pay', 'bk_123'),
		...paymentFields(kind),
		additionalFields([extraBodyField]),
	],
	method: 'POST',
	path: '/partner-api/bookings/{bookingId}/payment',
	body: paymentBody(kind),
	referent: ['bookingId'],
	answers: ['reference'],
	check: paymentCheck(kind),
};
