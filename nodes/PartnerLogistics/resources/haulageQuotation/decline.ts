import { INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { extraBodyOnly, quotationId, quotationPath } from './fields';

export const haulageQuotationDecline: OperationSpec = {
	name: 'Decline',
	value: 'decline',
	action: 'Decline a haulage quotation',
	description: `Decline the operator's HAUL quotation. ${INFERRED_PATH}.`,
	fields: [quotationId, extraBodyOnly],
	method: 'POST',
	path: `${quotationPath}/decline`,
	body: () => ({}),
	referent: ['quotationId'],
};
