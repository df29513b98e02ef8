// GO_BULK: the partner asks, the operator quotes (admin), the partner pays or accepts credit.
import { conflict, invalid, notFound } from '../errors';
import type { RouteContext, RouteDef } from '../router';
import type { QuoteRequestRecord } from '../store';
import { paymentView, quoteRequestView } from '../views';
import { endpointFields, readEndpoint } from '../validate/endpoint';
import { type JsonObject, optionalNumber, optionalString } from '../validate/fields';
import { readPaymentBody, rejectForbiddenPaymentFields } from '../validate/payment';
import {
	assertNoLivePayment,
	requireCredit,
	requireQuotation,
	requireUnexpired,
	startPayment,
} from './payable';

/** Lenient: types and the hub rules only, since the spec names no required field. */
function readQuoteRequest(body: JsonObject): JsonObject {
	const serviceType = optionalString(body.serviceType, 'serviceType');
	if (serviceType !== undefined && serviceType !== 'GO_BULK') {
		throw invalid(
			'serviceType',
			`Quote requests are GO_BULK only; got ${JSON.stringify(serviceType)}. Use POST /partner-api/booking-quotes for CLICK, GO_LIGHT and EXPRESS.`,
		);
	}
	const quantity = optionalNumber(body.quantity, 'quantity', 1, 1_000_000);
	if (quantity !== undefined && !Number.isInteger(quantity)) {
		throw invalid('quantity', `quantity must be a whole number of items; got ${quantity}.`);
	}
	const request: JsonObject = {
		itemDescription: optionalString(body.itemDescription, 'itemDescription'),
		quantity,
		...endpointFields('pickup', readEndpoint(body, 'pickup', false)),
		...endpointFields('dropoff', readEndpoint(body, 'dropoff', false)),
		specialHandlingRequirement: optionalString(
			body.specialHandlingRequirement,
			'specialHandlingRequirement',
		),
		externalReference: optionalString(body.externalReference, 'externalReference'),
	};
	return Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
}

function findRequest(ctx: RouteContext): QuoteRequestRecord {
	const record = ctx.org.quoteRequests.get(ctx.params.quoteRequestId);
	if (!record) throw notFound('Quote request', ctx.params.quoteRequestId);
	return record;
}

/** Paying and accepting credit both commit to the quotation, so both need it open and unexpired. */
function assertCommittable(ctx: RouteContext, record: QuoteRequestRecord) {
	const what = `Quote request ${record.quoteRequestId}`;
	const quotation = requireQuotation(record.quotation, what);
	if (record.status === 'CREDIT_ACCEPTED' && !ctx.core.settings.repeatActions) {
		throw conflict('ALREADY_CREDIT_ACCEPTED', `${what} was already accepted on credit.`);
	}
	assertNoLivePayment(ctx, record, what);
	requireUnexpired(quotation, ctx.now, what);
	return { quotation, what };
}

export const goBulkRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: '/partner-api/quote-requests',
		capability: 'partner:write',
		handle(ctx) {
			const record: QuoteRequestRecord = {
				quoteRequestId: ctx.core.store.nextId('qr'),
				status: 'PENDING_QUOTATION',
				paymentStatus: 'UNPAID',
				request: readQuoteRequest(ctx.body),
				createdAt: ctx.now,
				updatedAt: ctx.now,
			};
			ctx.org.quoteRequests.set(record.quoteRequestId, record);
			return { status: 201, body: quoteRequestView(record) };
		},
	},
	{
		method: 'GET',
		path: '/partner-api/quote-requests/:quoteRequestId',
		capability: 'partner:read',
		handle: (ctx) => ({ status: 200, body: quoteRequestView(findRequest(ctx)) }),
	},
	{
		method: 'POST',
		path: '/partner-api/quote-requests/:quoteRequestId/payment',
		capability: 'partner:write',
		handle(ctx) {
			const record = findRequest(ctx);
			const choice = readPaymentBody(ctx.body, {
				creditAccepted: true,
				stageAccepted: false,
				cards: ctx.org.savedCards,
			});
			const { quotation, what } = assertCommittable(ctx, record);
			if (choice.paymentMethod === 'CREDIT') requireCredit(ctx.org, quotation, what);
			const payment = startPayment(
				ctx,
				record,
				{ type: 'QUOTE_REQUEST', id: record.quoteRequestId },
				choice,
				quotation,
			);
			return { status: 201, body: paymentView(payment) };
		},
	},
	{
		method: 'POST',
		path: '/partner-api/quote-requests/:quoteRequestId/credit-accept',
		capability: 'partner:write',
		handle(ctx) {
			const record = findRequest(ctx);
			rejectForbiddenPaymentFields(ctx.body);
			const { quotation, what } = assertCommittable(ctx, record);
			requireCredit(ctx.org, quotation, what);
			record.status = 'CREDIT_ACCEPTED';
			record.updatedAt = ctx.now;
			return { status: 200, body: quoteRequestView(record) };
		},
	},
];
