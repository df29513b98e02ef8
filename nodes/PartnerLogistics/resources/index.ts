import type { ResourceSpec } from '../pipeline/operation';
import { bookingResource } from './booking';
import { haulageQuotationResource } from './haulageQuotation';
import { hubResource } from './hub';
import { paymentResource } from './payment';
import { quoteResource } from './quote';
import { quoteRequestResource } from './quoteRequest';
import { supportCaseResource } from './supportCase';
import { trackingResource } from './tracking';

/** Every resource of the node, in the order their fields appear in the description. */
export const RESOURCES: ResourceSpec[] = [
	hubResource,
	quoteResource,
	bookingResource,
	quoteRequestResource,
	haulageQuotationResource,
	paymentResource,
	trackingResource,
	supportCaseResource,
];
