import type { IDataObject } from 'n8n-workflow';

import type { BodyInput, ResourceSpec } from '../pipeline/operation';
import { bookingResource } from './booking';
import { haulageQuotationResource } from './haulageQuotation';
import { hubResource } from './hub';
import { paymentResource } from './payment';
import { quoteResource } from './quote';
import { quoteRequestResource } from './quoteRequest';
import { supportCaseResource } from './supportCase';
import { trackingResource } from './tracking';

/** An item's External Reference (its own or Additional Fields'), to find a failed order at once. */
function externalReference({ item, read }: BodyInput): string | undefined {
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const reference = item.externalReference ?? additional.externalReference;
	return typeof reference === 'string' || typeof reference === 'number'
		? `externalReference ${String(reference)}`
		: undefined;
}

/**
 * Every resource of the node, in the order their fields appear in the description. An item of an
 * operation on one record is named by its External Reference in its errors (a list's is no order).
 */
export const RESOURCES: ResourceSpec[] = [
	hubResource,
	quoteResource,
	bookingResource,
	quoteRequestResource,
	haulageQuotationResource,
	paymentResource,
	trackingResource,
	supportCaseResource,
].map((resource) => ({
	...resource,
	operations: resource.operations.map((spec) =>
		spec.list ? spec : { reference: externalReference, ...spec },
	),
}));
