import type { INodeProperties } from 'n8n-workflow';

import { idField } from '../../shared/descriptions';
import { directRouteFields } from '../../shared/route';

const showOnlyForBookingCreate = { resource: ['booking'], operation: ['create'] };

export const bookingCreateDescription: INodeProperties[] = [
	idField(
		'quoteId',
		'Quote ID',
		showOnlyForBookingCreate,
		'The quote to book; it must not have expired',
		'qt_123',
	),
	...directRouteFields(
		showOnlyForBookingCreate,
		true,
		'Optional fields; they replace the ones of the quoted route or the incoming item',
	),
];
