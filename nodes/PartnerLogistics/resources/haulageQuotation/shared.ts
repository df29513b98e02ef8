import type { INodeProperties } from 'n8n-workflow';

import { extraBodyField, idField } from '../../shared/descriptions';

const show = (operation: string) => ({ resource: ['haulageQuotation'], operation: [operation] });

export const quotationIdField = (operation: string) =>
	idField('quotationId', 'Quotation ID', show(operation), 'The HAUL quotation', 'hq_123');

/** Additional Fields holding only the Extra Body Fields, for bodies the spec does not show. */
export const extraBodyCollection = (operation: string): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	displayOptions: { show: show(operation) },
	options: [extraBodyField],
});
