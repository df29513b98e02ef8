import { INFERRED_PATH } from '../../descriptions/fields';
import { quoteRequestGet } from '../../resources/quoteRequest/get';
import { byListedIds, type WatchSpec } from '../watch';

export const quoteRequestWatch: WatchSpec = {
	name: 'New or Changed Quote Request (GO_BULK)',
	value: 'quoteRequest',
	description: `Looks up each GO_BULK quote request you list (Quote Request › Get), e.g. to learn when the operator sends its quotation. ${INFERRED_PATH}.`,
	record: 'quote request',
	records: 'quote requests',
	operation: quoteRequestGet,
	identity: byListedIds(
		'quoteRequestIds',
		'Quote Request IDs',
		'quote request IDs',
		'qr_123, qr_456',
		'The quoteRequestId values Quote Request › Create returned.',
	),
};
