import type { IDataObject } from 'n8n-workflow';

import type { BodyInput, ResourceSpec } from '../pipeline/operation';
import { bookingCreate } from './booking/create';
import { bookingPay } from './booking/pay';
import { haulageQuotationAccept } from './haulageQuotation/accept';
import { haulageQuotationAcceptCredit } from './haulageQuotation/acceptCredit';
import { haulageQuotationCreate } from './haulageQuotation/create';
import { haulageQuotationDecline } from './haulageQuotation/decline';
import { haulageQuotationGet } from './haulageQuotation/get';
import { haulageQuotationPay } from './haulageQuotation/pay';
import { hubGetMany } from './hub/getAll';
import { paymentGet } from './payment/get';
import { quoteCreate } from './quote/create';
import { quoteRequestAcceptCredit } from './quoteRequest/acceptCredit';
import { quoteRequestCreate } from './quoteRequest/create';
import { quoteRequestGet } from './quoteRequest/get';
import { quoteRequestPay } from './quoteRequest/pay';
import { supportCaseAddComment } from './supportCase/addComment';
import { supportCaseClose } from './supportCase/close';
import { supportCaseCreate } from './supportCase/create';
import { supportCaseGet } from './supportCase/get';
import { supportCaseGetMany } from './supportCase/getAll';
import { supportCaseReopen } from './supportCase/reopen';
import { trackingGetTrucks } from './tracking/getAssignedTrucks';
import { trackingGetTrip } from './tracking/getTrip';
import { trackingGetTruck } from './tracking/getTruck';

/** An item's External Reference (its own or Additional Fields'), to find a failed order at once. */
function externalReference({ item, read }: BodyInput): string | undefined {
	const additional = (read('additionalFields') ?? {}) as IDataObject;
	const reference = item.externalReference ?? additional.externalReference;
	return typeof reference === 'string' || typeof reference === 'number'
		? `externalReference ${String(reference)}`
		: undefined;
}

/** Every resource; a record operation's errors name the item's reference (a list's is no order). */
export const RESOURCES: ResourceSpec[] = [
	{
		displayName: 'Hub',
		value: 'hub',
		description: 'The active hubs, for hub drop-off and hub pickup routes',
		operations: [hubGetMany],
	},
	{
		displayName: 'Quote',
		value: 'quote',
		description: 'Price a CLICK, GO_LIGHT or EXPRESS delivery before booking it',
		operations: [quoteCreate],
	},
	{
		displayName: 'Booking',
		value: 'booking',
		description: 'Book a quoted CLICK, GO_LIGHT or EXPRESS delivery, and pay for it',
		operations: [bookingCreate, bookingPay],
	},
	{
		displayName: 'Quote Request',
		value: 'quoteRequest',
		description: 'GO_BULK: request, fetch and pay a manual quotation',
		defaultOperation: 'create',
		operations: [quoteRequestAcceptCredit, quoteRequestCreate, quoteRequestGet, quoteRequestPay],
	},
	{
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
	},
	{
		displayName: 'Payment',
		value: 'payment',
		description: 'The status of a payment, by its reference',
		operations: [paymentGet],
	},
	{
		displayName: 'Tracking',
		value: 'tracking',
		description: 'Where HAUL trucks and trips are',
		defaultOperation: 'getTrucks',
		operations: [trackingGetTrip, trackingGetTruck, trackingGetTrucks],
	},
	{
		displayName: 'Support Case',
		value: 'supportCase',
		description: 'Open, comment on, close and reopen support cases',
		defaultOperation: 'create',
		operations: [
			supportCaseAddComment,
			supportCaseClose,
			supportCaseCreate,
			supportCaseGet,
			supportCaseGetMany,
			supportCaseReopen,
		],
	},
].map((resource) => ({
	...resource,
	operations: resource.operations.map((spec) =>
		spec.list ? spec : { reference: externalReference, ...spec },
	),
}));
