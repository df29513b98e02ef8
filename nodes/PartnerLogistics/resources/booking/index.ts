import type { ResourceSpec } from '../../pipeline/operation';
import { bookingCreate } from './create';
import { bookingPay } from './pay';

export const bookingResource: ResourceSpec = {
	displayName: 'Booking',
	value: 'booking',
	description: 'Book a quoted CLICK, GO_LIGHT or EXPRESS delivery, and pay for it',
	defaultOperation: 'create',
	operations: [bookingCreate, bookingPay],
};
