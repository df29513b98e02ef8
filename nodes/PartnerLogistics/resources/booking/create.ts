import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { idField } from '../../shared/descriptions';
import {
	inputFieldsNotice,
	routeFields,
	routeOptionFields,
	routeSourceField,
} from '../../shared/route';
import { ROUTE_OPTION_FIELDS } from '../../shared/routeBody';
import { DEFINE } from '../../shared/routeRequest';
import { ROUTE_FIELDS } from '../../shared/validate';

const showOnlyForBookingCreate = { resource: ['booking'], operation: ['create'] };

export const bookingCreateDescription: INodeProperties[] = [
	idField(
		'quoteId',
		'Quote ID',
		showOnlyForBookingCreate,
		'The quote to book; it must not have expired',
		'qt_123',
	),
	...updateDisplayOptions({ show: showOnlyForBookingCreate }, [
		routeSourceField(true),
		inputFieldsNotice([...ROUTE_FIELDS, ...ROUTE_OPTION_FIELDS]),
	]),
	...updateDisplayOptions(
		{ show: { ...showOnlyForBookingCreate, routeSource: [DEFINE] } },
		routeFields,
	),
	...updateDisplayOptions({ show: showOnlyForBookingCreate }, [
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description:
				'Optional fields; they replace the ones of the quoted route or the incoming item',
			options: routeOptionFields,
		},
	]),
];
