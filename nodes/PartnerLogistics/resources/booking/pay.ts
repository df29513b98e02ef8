import { additionalFields, extraBodyField, idField } from '../../descriptions/fields';
import { paymentRequest } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';

export const bookingPay: OperationSpec = {
	name: 'Pay',
	value: 'pay',
	action: 'Pay for a booking',
	description: 'Pay a booking with a saved card (direct bookings cannot use credit)',
	...paymentRequest(
		{ credit: false, stage: false },
		idField('bookingId', 'Booking ID', 'The booking to pay', 'bk_123'),
		'/partner-api/bookings/{bookingId}',
		[additionalFields([extraBodyField])],
	),
};
