import type { ResourceSpec } from '../../pipeline/operation';
import { haulageQuotationAccept } from './accept';
import { haulageQuotationAcceptCredit } from './acceptCredit';
import { haulageQuotationCreate } from './create';
import { haulageQuotationDecline } from './decline';
import { haulageQuotationGet } from './get';
import { haulageQuotationPay } from './pay';

export const haulageQuotationResource: ResourceSpec = {
	displayName: 'Haulage Quotation',
	value: 'haulageQuotation',
	description: 'HAUL: request, accept or decline, and pay a manual quotation',
	defaultOperation: 'create',
	operations: [
		haulageQuotationAccept,
		haulageQuotationAcceptCredit,
		haulageQuotationCreate,
		haulageQuotationDecline,
		haulageQuotationGet,
		haulageQuotationPay,
	],
};
