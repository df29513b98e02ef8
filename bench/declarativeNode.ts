// A reference between the two sides of the quote bench: the smallest declarative node that sends
// the same request (same requestDefaults and credential, the route read from each item by
// expressions, no preSend/postReceive). What it costs over the baseline is n8n-core's declarative
// engine and its expressions, paid by any declarative node; the rest of the node's time is ours.
import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PartnerLogistics } from '../nodes/PartnerLogistics/PartnerLogistics.node';

export const DECLARATIVE_NODE_TYPE = 'bench.declarativeQuote';

const bodyField = (name: string, type: 'string' | 'number'): INodeProperties => ({
	displayName: name,
	name,
	type,
	default: type === 'number' ? 0 : '',
	routing: { send: { type: 'body', property: name } },
});

export class DeclarativeQuote implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Declarative Quote',
		name: 'declarativeQuote',
		group: ['transform'],
		version: 1,
		description: 'Bench reference: a bare declarative POST per item',
		defaults: { name: 'Declarative Quote' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'partnerLogisticsApi', required: true }],
		requestDefaults: { ...new PartnerLogistics().description.requestDefaults },
		properties: [
			{
				...bodyField('serviceType', 'string'),
				routing: {
					request: { method: 'POST', url: '/partner-api/booking-quotes' },
					send: { type: 'body', property: 'serviceType' },
				},
			},
			bodyField('pickupAddress', 'string'),
			bodyField('pickupLatitude', 'number'),
			bodyField('pickupLongitude', 'number'),
			bodyField('dropoffAddress', 'string'),
			bodyField('dropoffLatitude', 'number'),
			bodyField('dropoffLongitude', 'number'),
			{
				displayName: 'Idempotency Key',
				name: 'idempotencyKey',
				type: 'string',
				default: '',
				// `send` knows body and query only; a header goes through `request`.
				routing: { request: { headers: { 'Idempotency-Key': '={{ $value }}' } } },
			},
		],
	};
}
