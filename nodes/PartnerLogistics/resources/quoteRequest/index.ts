import { INFERRED_PATH } from '../../shared/descriptions';
import type { ResourceSpec } from '../../shared/operation';
import { paymentBody, paymentCheck } from '../../shared/payment';
import { validateNoPaymentDetails, validateQuoteRequest } from '../../shared/validate';
import { quoteRequestAcceptCreditDescription } from './acceptCredit';
import { quoteRequestBody, quoteRequestCreateDescription } from './create';
import { quoteRequestGetDescription } from './get';
import { quoteRequestPayDescription } from './pay';

export const quoteRequestResource: ResourceSpec = {
	displayName: 'Quote Request',
	value: 'quoteRequest',
	description: 'GO_BULK: request, fetch and pay a manual quotation',
	defaultOperation: 'create',
	operations: [
		{
			name: 'Accept Credit',
			value: 'acceptCredit',
			subtitle: 'Accept Credit for Quote Request',
			action: 'Accept credit for a quote request',
			description:
				'Accept the approved partner credit offered with the quotation (only where credit is enabled)',
			method: 'POST',
			path: '/partner-api/quote-requests/{quoteRequestId}/credit-accept',
			body: () => ({}),
			check: validateNoPaymentDetails,
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create a quote request',
			description: 'Ask the operator to quote a GO_BULK shipment',
			method: 'POST',
			path: '/partner-api/quote-requests',
			body: quoteRequestBody,
			check: validateQuoteRequest,
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a quote request',
			description: `Fetch a quote request, e.g. to see whether the operator sent a quotation. ${INFERRED_PATH}.`,
			method: 'GET',
			path: '/partner-api/quote-requests/{quoteRequestId}',
		},
		{
			name: 'Pay',
			value: 'pay',
			action: 'Pay for a quote request',
			description:
				'Pay the quotation with a saved card, or with CREDIT where the quotation was issued with credit terms and has not expired',
			method: 'POST',
			path: '/partner-api/quote-requests/{quoteRequestId}/payment',
			body: paymentBody({ credit: true, stage: false }),
			check: paymentCheck(['SAVED_CARD', 'CREDIT']),
		},
	],
	fields: [
		...quoteRequestCreateDescription,
		...quoteRequestGetDescription,
		...quoteRequestPayDescription,
		...quoteRequestAcceptCreditDescription,
	],
};
