import type { ResourceSpec } from '../../shared/operation';
import { quoteBody, withQuotedRoute } from '../../shared/routeRequest';
import { quoteCreateDescription } from './create';

export const quoteResource: ResourceSpec = {
	displayName: 'Quote',
	value: 'quote',
	description: 'Price a CLICK, GO_LIGHT or EXPRESS delivery before booking it',
	defaultOperation: 'create',
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a quote',
			description:
				'Price a CLICK, GO_LIGHT or EXPRESS delivery. The output carries the route it was priced for, ready for Booking › Create.',
			method: 'POST',
			path: '/partner-api/booking-quotes',
			body: quoteBody,
			requires: 'quoteId',
			output: withQuotedRoute,
		},
	],
	fields: quoteCreateDescription,
};
