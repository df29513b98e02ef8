import type { INodeProperties } from 'n8n-workflow';

import { extraBodyField, idField, paymentFields } from '../../shared/descriptions';

const showOnlyForBookingPay = { resource: ['booking'], operation: ['pay'] };

export const bookingPayDescription: INodeProperties[] = [
	idField('bookingId', 'Booking ID', showOnlyForBookingPay, 'The booking to pay', 'bk_123'),
	...paymentFields(showOnlyForBookingPay, { credit: false, stage: false }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForBookingPay },
		options: [extraBodyField],
	},
];
