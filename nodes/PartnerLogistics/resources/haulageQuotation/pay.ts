import { paymentBody, paymentCheck, paymentFields } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { quotationId, quotationPath } from './fields';

/** A HAUL quotation is paid with a saved card, or on credit where it was issued so, by stage. */
const kind = { credit: true, stage: true };

export const haulageQuotationPay: OperationSpec = {
	name: 'Pay',
	value: 'pay',
	action: 'Pay for a haulage quotation',
	description:
		'Pay a HAUL quotation with a saved card, or with CREDIT where it was issued with credit terms',
	fields: [quotationId, ...paymentFields(kind)],
	method: 'POST',
	path: `${quotationPath}/payment`,
	body: paymentBody(kind),
	referent: ['quotationId', 'paymentStage'],
	answers: ['reference'],
	check: paymentCheck(kind),
};
