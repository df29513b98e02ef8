import type { INodeProperties } from 'n8n-workflow';

import { INFERRED_PATH } from '../../shared/descriptions';
import { operation, operationPicker } from '../../shared/operation';
import { paymentBody, paymentCheck } from '../../shared/payment';
import { validateNoPaymentDetails, validateQuoteRequest } from '../../shared/validate';
import { quoteRequestAcceptCreditDescription } from './acceptCredit';
import { quoteRequestBody, quoteRequestCreateDescription } from './create';
import { quoteRequestGetDescription } from './get';
import { quoteRequestPayDescription } from './pay';

export const quoteRequestDescription: INodeProperties[] = [
	operationPicker(
		'quoteRequest',
		[
			operation({
				name: 'Accept Credit',
				value: 'acceptCredit',
				action: 'Accept credit for a quote request',
				description:
					'Accept the approved partner credit offered with the quotation (only where credit is enabled)',
				method: 'POST',
				path: '/partner-api/quote-requests/{quoteRequestId}/credit-accept',
				body: () => ({}),
				check: validateNoPaymentDetails,
			}),
			operation({
				name: 'Create',
				value: 'create',
				action: 'Create a quote request',
				description: 'Ask the operator to quote a GO_BULK shipment',
				method: 'POST',
				path: '/partner-api/quote-requests',
				body: quoteRequestBody,
				check: validateQuoteRequest,
			}),
			operation({
				name: 'Get',
				value: 'get',
				action: 'Get a quote request',
				description: `Fetch a quote request, e.g. to see whether the operator sent a quotation. ${INFERRED_PATH}.`,
				method: 'GET',
				path: '/partner-api/quote-requests/{quoteRequestId}',
			}),
			operation({
				name: 'Pay',
				value: 'pay',
				action: 'Pay for a quote request',
				description:
					'Pay the quotation with a saved card, or with CREDIT where the quotation was issued with credit terms and has not expired',
				method: 'POST',
				path: '/partner-api/quote-requests/{quoteRequestId}/payment',
				body: paymentBody({ credit: true, stage: false }),
				check: paymentCheck(['SAVED_CARD', 'CREDIT']),
			}),
		],
		'create',
	),
	...quoteRequestCreateDescription,
	...quoteRequestGetDescription,
	...quoteRequestPayDescription,
	...quoteRequestAcceptCreditDescription,
];
