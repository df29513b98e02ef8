import { paymentRequest } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { quotationId, quotationPath } from './fields';

export const haulageQuotationPay: OperationSpec = {
	name: 'Pay',
	value: 'pay',
	action: 'Pay for a haulage quotation',
	description:
		'Pay a HAUL quotation with a saved card, or with CREDIT where it was issued with credit terms',
	...paymentRequest({ credit: true, stage: true }, quotationId, quotationPath),
};
