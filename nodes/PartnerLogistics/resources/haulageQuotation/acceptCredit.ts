import { INFERRED_PATH } from '../../descriptions/fields';
import { noPaymentDetails } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { extraBodyOnly, quotationId, quotationPath } from './fields';

export const haulageQuotationAcceptCredit: OperationSpec = {
	name: 'Accept Credit',
	value: 'acceptCredit',
	subtitle: 'Accept Credit for Haulage Quotation',
	action: 'Accept credit for a haulage quotation',
	description: `Accept the approved credit of a quotation issued with credit terms. ${INFERRED_PATH}.`,
	fields: [quotationId, extraBodyOnly],
	method: 'POST',
	path: `${quotationPath}/credit-accept`,
	body: () => ({}),
	referent: ['quotationId'],
	check: noPaymentDetails,
};
