import { jsonObject } from '../../shared/body';
import { INFERRED_PATH } from '../../shared/descriptions';
import type { ResourceSpec } from '../../shared/operation';
import { paymentBody, paymentCheck } from '../../shared/payment';
import { fail, required, validateNoPaymentDetails } from '../../shared/validate';
import { haulageQuotationAcceptDescription } from './accept';
import { haulageQuotationAcceptCreditDescription } from './acceptCredit';
import { haulageQuotationCreateDescription } from './create';
import { haulageQuotationDeclineDescription } from './decline';
import { haulageQuotationGetDescription } from './get';
import { haulageQuotationPayDescription } from './pay';

const quotationPath = '/partner-api/haulage/quotations/{quotationId}';

export const haulageQuotationResource: ResourceSpec = {
	displayName: 'Haulage Quotation',
	value: 'haulageQuotation',
	description: 'HAUL: request, accept or decline, and pay a manual quotation',
	defaultOperation: 'create',
	operations: [
		{
			name: 'Accept',
			value: 'accept',
			action: 'Accept a haulage quotation',
			description: `Accept the operator's HAUL quotation. ${INFERRED_PATH}.`,
			method: 'POST',
			path: `${quotationPath}/accept`,
			body: () => ({}),
		},
		{
			name: 'Accept Credit',
			value: 'acceptCredit',
			subtitle: 'Accept Credit for Haulage Quotation',
			action: 'Accept credit for a haulage quotation',
			description: `Accept the approved credit of a quotation issued with credit terms. ${INFERRED_PATH}.`,
			method: 'POST',
			path: `${quotationPath}/credit-accept`,
			body: () => ({}),
			check: validateNoPaymentDetails,
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Request a haulage quotation',
			description: `Ask the operator to quote a HAUL shipment. ${INFERRED_PATH}; the body is sent as given.`,
			method: 'POST',
			path: '/partner-api/haulage/quotations',
			body: ({ read }) => {
				const details = jsonObject(read('shipmentDetails'), 'shipmentDetails');
				if (!Object.keys(details).length) fail(required('shipmentDetails', '{}'));
				return details;
			},
		},
		{
			name: 'Decline',
			value: 'decline',
			action: 'Decline a haulage quotation',
			description: `Decline the operator's HAUL quotation. ${INFERRED_PATH}.`,
			method: 'POST',
			path: `${quotationPath}/decline`,
			body: () => ({}),
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a haulage quotation',
			description: `Fetch a HAUL quotation and its status. ${INFERRED_PATH}.`,
			method: 'GET',
			path: quotationPath,
		},
		{
			name: 'Pay',
			value: 'pay',
			action: 'Pay for a haulage quotation',
			description:
				'Pay a HAUL quotation with a saved card, or with CREDIT where it was issued with credit terms',
			method: 'POST',
			path: `${quotationPath}/payment`,
			body: paymentBody({ credit: true, stage: true }),
			check: paymentCheck(['SAVED_CARD', 'CREDIT']),
		},
	],
	fields: [
		...haulageQuotationCreateDescription,
		...haulageQuotationGetDescription,
		...haulageQuotationAcceptDescription,
		...haulageQuotationDeclineDescription,
		...haulageQuotationPayDescription,
		...haulageQuotationAcceptCreditDescription,
	],
};
