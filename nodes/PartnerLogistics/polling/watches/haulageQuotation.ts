import { INFERRED_PATH } from '../../descriptions/fields';
import { haulageQuotationGet } from '../../resources/haulageQuotation/get';
import { byListedIds, type WatchSpec } from '../watch';

export const haulageQuotationWatch: WatchSpec = {
	name: 'New or Changed Haulage Quotation (HAUL)',
	value: 'haulageQuotation',
	description: `Looks up each HAUL quotation you list (Haulage Quotation › Get), e.g. to learn when the operator quotes it or assigns a truck. ${INFERRED_PATH}.`,
	record: 'haulage quotation',
	records: 'haulage quotations',
	operation: haulageQuotationGet,
	identity: byListedIds(
		'quotationIds',
		'Quotation IDs',
		'haulage quotation IDs',
		'hq_123, hq_456',
		'The quotationId values Haulage Quotation › Create returned.',
	),
};
