import type { INodeProperties } from 'n8n-workflow';

export const haulageQuotationCreateDescription: INodeProperties[] = [
	{
		displayName: 'Shipment Details (JSON)',
		name: 'shipmentDetails',
		type: 'json',
		required: true,
		default: '{}',
		placeholder: '{"cargo": "20 pallets of tiles", "pickupAddress": "…", "dropoffAddress": "…"}',
		description:
			'The request body: the shipment and route details the operator needs to quote. The published API documentation names the step but not its fields, so the body is sent as you write it.',
		hint: 'Ask your Partner Logistics contact which fields they expect; any JSON object is sent unchanged',
		displayOptions: { show: { resource: ['haulageQuotation'], operation: ['create'] } },
	},
];
