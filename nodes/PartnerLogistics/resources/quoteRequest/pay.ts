import { paymentRequest } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { quoteRequestId, quoteRequestPath } from './fields';

export const quoteRequestPay: OperationSpec = {
	name: 'Pay',
	value: 'pay',
	action: 'Pay for a quote request',
	description:
		'Pay the quotation with a saved card, or with CREDIT where the quotation was issued with credit terms and has not expired',
	...paymentRequest({ credit: true, stage: false }, quoteRequestId, quoteRequestPath),
};
