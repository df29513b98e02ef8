import { INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { quotationId, quotationPath } from './fields';

export const haulageQuotationGet: OperationSpec = {
	name: 'Get',
	value: 'get',
	action: 'Get a haulage quotation',
	description: `Fetch a HAUL quotation and its status. ${INFERRED_PATH}.`,
	fields: [quotationId],
	method: 'GET',
	path: quotationPath,
};
