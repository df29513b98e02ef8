import type { ResourceSpec } from '../../pipeline/operation';
import { quoteRequestAcceptCredit } from './acceptCredit';
import { quoteRequestCreate } from './create';
import { quoteRequestGet } from './get';
import { quoteRequestPay } from './pay';

export const quoteRequestResource: ResourceSpec = {
	displayName: 'Quote Request',
	value: 'quoteRequest',
	description: 'GO_BULK: request, fetch and pay a manual quotation',
	defaultOperation: 'create',
	operations: [quoteRequestAcceptCredit, quoteRequestCreate, quoteRequestGet, quoteRequestPay],
};
