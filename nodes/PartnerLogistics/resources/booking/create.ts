import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { routeFields, routeOptionFields } from '../../shared/route';

const showOnlyForBookingCreate = { resource: ['booking'], operation: ['create'] };

export const bookingCreateDescription: INodeProperties[] = [
	...updateDisplayOptions({ show: showOnlyForBookingCreate }, [
		{
			displayName: 'Quote ID',
			name: 'quoteId',
			type: 'string',
			required: true,
			default: '={{ $json.quoteId }}',
			placeholder: 'e.g. qt_123',
			description: 'The quote to book; it must not have expired',
			hint: 'By default taken from the incoming item, the output of Quote › Create',
		},
		{
			displayName: 'Route',
			name: 'routeSource',
			type: 'options',
			options: [
				{
					name: 'Same as the Incoming Quote',
					value: 'fromInput',
					description:
						'Send the route the incoming Quote › Create item was priced for (its quotedRoute)',
				},
				{
					name: 'Define Below',
					value: 'define',
					description: 'Enter the route again; it must match the quoted route',
				},
			],
			default: 'fromInput',
			description: 'The API books only the exact route that was quoted',
		},
	]),
	...updateDisplayOptions(
		{ show: { ...showOnlyForBookingCreate, routeSource: ['define'] } },
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
				'Optional fields; with Route set to the incoming quote they replace the quoted ones',
			options: routeOptionFields,
		},
	]),
];
