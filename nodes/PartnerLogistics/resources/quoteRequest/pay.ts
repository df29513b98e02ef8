import { paymentBody, paymentCheck, paymentFields } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { quoteRequestId, quoteRequestPath } from './fields';

/** A GO_BULK quotation is paid with a saved card, or on credit where it was issued so. */
const kind = { credit: true, stage: false };

export const quoteRequestPay: OperationSpec = {
	name: 'Pay',
	value: 'pay',
	action: 'Pay for a quote request',
	description:
		'Pay the quotation with a saved card, or with CREDIT where the quotation was issued with credit terms and has not expired',
	fields: [quoteRequestId, ...paymentFields(kind)],
	method: 'POST',
	path: `${quoteRequestPath}/payment`,
	body: paymentBody(kind),
	referent: ['quoteRequestId'],
	answers: ['reference'],
	check: paymentCheck(kind),
};
