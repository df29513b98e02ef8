import { INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { extraBodyOnly, quotationId, quotationPath } from './fields';

export const haulageQuotationAccept: OperationSpec = {
	name: 'Accept',
	value: 'accept',
	action: 'Accept a haulage quotation',
	description: `Accept the operator's HAUL quotation. ${INFERRED_PATH}.`,
	fields: [quotationId, extraBodyOnly],
	method: 'POST',
	path: `${quotationPath}/accept`,
	body: () => ({}),
	referent: ['quotationId'],
};
