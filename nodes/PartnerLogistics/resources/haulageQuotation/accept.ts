import { extraBodyAction, INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { quotationId, quotationPath } from './fields';

export const haulageQuotationAccept: OperationSpec = {
	name: 'Accept',
	value: 'accept',
	action: 'Accept a haulage quotation',
	description: `Accept the operator's HAUL quotation. ${INFERRED_PATH}.`,
	...extraBodyAction(quotationId, `${quotationPath}/accept`),
};
