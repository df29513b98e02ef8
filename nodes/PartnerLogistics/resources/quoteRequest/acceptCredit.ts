import { creditAcceptance } from '../../payment/initiation';
import type { OperationSpec } from '../../pipeline/operation';
import { quoteRequestId, quoteRequestPath } from './fields';

export const quoteRequestAcceptCredit: OperationSpec = {
	name: 'Accept Credit',
	value: 'acceptCredit',
	subtitle: 'Accept Credit for Quote Request',
	action: 'Accept credit for a quote request',
	description:
		'Accept the approved partner credit offered with the quotation (only where credit is enabled)',
	...creditAcceptance(quoteRequestId, quoteRequestPath),
};
