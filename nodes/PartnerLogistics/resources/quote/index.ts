import type { INodeProperties } from 'n8n-workflow';

import { operation, operationPicker } from '../../shared/operation';
import { attachQuotedRoute, sendQuote } from '../../shared/routeRequest';
import { quoteCreateDescription } from './create';

export const quoteDescription: INodeProperties[] = [
	operationPicker(
		'quote',
		[
			operation({
				name: 'Create',
				value: 'create',
				action: 'Create a quote',
				description:
					'Price a CLICK, GO_LIGHT or EXPRESS delivery. The output carries the route it was priced for, ready for Booking › Create.',
				method: 'POST',
				path: '/partner-api/booking-quotes',
				preSend: [sendQuote],
				postReceive: [attachQuotedRoute],
			}),
		],
		'create',
	),
	...quoteCreateDescription,
];
