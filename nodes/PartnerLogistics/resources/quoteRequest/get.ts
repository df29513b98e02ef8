import { INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { quoteRequestId, quoteRequestPath } from './fields';

export const quoteRequestGet: OperationSpec = {
	name: 'Get',
	value: 'get',
	action: 'Get a quote request',
	description: `Fetch a quote request, e.g. to see whether the operator sent a quotation. ${INFERRED_PATH}.`,
	fields: [quoteRequestId],
	method: 'GET',
	path: quoteRequestPath,
};
