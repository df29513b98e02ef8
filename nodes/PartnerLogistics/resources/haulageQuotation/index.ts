import type { INodeProperties } from 'n8n-workflow';

import { jsonObject } from '../../shared/body';
import { INFERRED_PATH } from '../../shared/descriptions';
import { operation, operationPicker } from '../../shared/operation';
import { paymentBody, paymentCheck } from '../../shared/payment';
import { validateNoPaymentDetails } from '../../shared/validate';
import { haulageQuotationAcceptDescription } from './accept';
import { haulageQuotationAcceptCreditDescription } from './acceptCredit';
import { haulageQuotationCreateDescription } from './create';
import { haulageQuotationDeclineDescription } from './decline';
import { haulageQuotationGetDescription } from './get';
import { haulageQuotationPayDescription } from './pay';

const quotationPath = '/partner-api/haulage/quotations/{quotationId}';

export const haulageQuotationDescription: INodeProperties[] = [
	operationPicker(
		'haulageQuotation',
		[
			operation({
				name: 'Accept',
				value: 'accept',
				action: 'Accept a haulage quotation',
				description: `Accept the operator's HAUL quotation. ${INFERRED_PATH}.`,
				method: 'POST',
				path: `${quotationPath}/accept`,
				body: () => ({}),
			}),
			operation({
				name: 'Accept Credit',
				value: 'acceptCredit',
				action: 'Accept credit for a haulage quotation',
				description: `Accept the approved credit of a quotation issued with credit terms. ${INFERRED_PATH}.`,
				method: 'POST',
				path: `${quotationPath}/credit-accept`,
				body: () => ({}),
				check: validateNoPaymentDetails,
			}),
			operation({
				name: 'Create',
				value: 'create',
				action: 'Request a haulage quotation',
				description: `Ask the operator to quote a HAUL shipment. ${INFERRED_PATH}; the body is sent as given.`,
				method: 'POST',
				path: '/partner-api/haulage/quotations',
				body: (read, fail) => jsonObject(read('shipmentDetails'), 'shipmentDetails', fail),
			}),
			operation({
				name: 'Decline',
				value: 'decline',
				action: 'Decline a haulage quotation',
				description: `Decline the operator's HAUL quotation. ${INFERRED_PATH}.`,
				method: 'POST',
				path: `${quotationPath}/decline`,
				body: () => ({}),
			}),
			operation({
				name: 'Get',
				value: 'get',
				action: 'Get a haulage quotation',
				description: `Fetch a HAUL quotation and its status. ${INFERRED_PATH}.`,
				method: 'GET',
				path: quotationPath,
			}),
			operation({
				name: 'Pay',
				value: 'pay',
				action: 'Pay for a haulage quotation',
				description:
					'Pay a HAUL quotation with a saved card, or with CREDIT where it was issued with credit terms',
				method: 'POST',
				path: `${quotationPath}/payment`,
				body: paymentBody({ credit: true, stage: true }),
				check: paymentCheck(['SAVED_CARD', 'CREDIT']),
			}),
		],
		'create',
	),
	...haulageQuotationCreateDescription,
	...haulageQuotationGetDescription,
	...haulageQuotationAcceptDescription,
	...haulageQuotationDeclineDescription,
	...haulageQuotationPayDescription,
	...haulageQuotationAcceptCreditDescription,
];
