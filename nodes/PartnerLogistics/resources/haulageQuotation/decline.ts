import { extraBodyAction, INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { quotationId, quotationPath } from './fields';

export const haulageQuotationDecline: OperationSpec = {
	name: 'Decline',
	value: 'decline',
	action: 'Decline a haulage quotation',
	description: `Decline the operator's HAUL quotation. ${INFERRED_PATH}.`,
	...extraBodyAction(quotationId, `${quotationPath}/decline`),
};
