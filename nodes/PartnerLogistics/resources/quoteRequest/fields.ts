import { idField } from '../../descriptions/fields';

export const quoteRequestId = idField(
	'quoteRequestId',
	'Quote Request ID',
	'The GO_BULK quote request',
	'qr_123',
);

export const quoteRequestPath = '/partner-api/quote-requests/{quoteRequestId}';
