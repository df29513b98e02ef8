import { idField } from '../../descriptions/fields';

export const quotationId = idField('quotationId', 'Quotation ID', 'The HAUL quotation', 'hq_123');

export const quotationPath = '/partner-api/haulage/quotations/{quotationId}';
