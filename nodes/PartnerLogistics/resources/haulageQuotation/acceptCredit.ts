import { INFERRED_PATH } from '../../descriptions/fields';
import { creditAcceptance } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { quotationId, quotationPath } from './fields';

export const haulageQuotationAcceptCredit: OperationSpec = {
	name: 'Accept Credit',
	value: 'acceptCredit',
	subtitle: 'Accept Credit for Haulage Quotation',
	action: 'Accept credit for a haulage quotation',
	description: `Accept the approved credit of a quotation issued with credit terms. ${INFERRED_PATH}.`,
	...creditAcceptance(quotationId, quotationPath),
};
