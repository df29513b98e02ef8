import type { OperationSpec } from '../../pipeline/operation';
import { goBulkBody, goBulkCheck, goBulkFields } from '../../route/goBulk';

export const quoteRequestCreate: OperationSpec = {
	name: 'Create',
	value: 'create',
	action: 'Create a quote request',
	description: 'Ask the operator to quote a GO_BULK shipment',
	fields: goBulkFields,
	method: 'POST',
	path: '/partner-api/quote-requests',
	answers: ['quoteRequestId'],
	body: goBulkBody,
	check: goBulkCheck,
};
