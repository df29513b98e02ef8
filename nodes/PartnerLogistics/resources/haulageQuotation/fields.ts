import { additionalFields, extraBodyField, idField } from '../../descriptions/fields';

export const quotationId = idField('quotationId', 'Quotation ID', 'The HAUL quotation', 'hq_123');

export const quotationPath = '/partner-api/haulage/quotations/{quotationId}';

/** Additional Fields holding only the Extra Body Fields, for bodies the spec does not show. */
export const extraBodyOnly = additionalFields([extraBodyField]);
