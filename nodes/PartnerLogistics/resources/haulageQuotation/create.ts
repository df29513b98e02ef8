import { INFERRED_PATH } from '../../descriptions/fields';
import type { OperationSpec } from '../../pipeline/operation';
import { jsonObject, required } from '../../pipeline/problem';
import { externalReference } from '../../route/reference';

export const haulageQuotationCreate: OperationSpec = {
	name: 'Create',
	value: 'create',
	action: 'Request a haulage quotation',
	description: `Ask the operator to quote a HAUL shipment. ${INFERRED_PATH}; the body is sent as given.`,
	fields: [
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
		},
	],
	method: 'POST',
	path: '/partner-api/haulage/quotations',
	body: ({ read }) => jsonObject(read('shipmentDetails'), 'shipmentDetails'),
	check: (body) => (Object.keys(body).length ? undefined : required('shipmentDetails', '{}')),
	reference: externalReference,
};
