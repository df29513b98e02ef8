import { idField } from '../../shared/descriptions';

export const quoteRequestIdField = (operation: string) =>
	idField(
		'quoteRequestId',
		'Quote Request ID',
		{ resource: ['quoteRequest'], operation: [operation] },
		'The GO_BULK quote request',
		'qr_123',
	);
