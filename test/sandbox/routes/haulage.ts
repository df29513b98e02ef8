// HAUL: request, operator quotes (admin), accept / decline / pay / accept credit, then tracking.
import { conflict, notFound } from '../errors';
import type { RouteContext, RouteDef } from '../router';
import type { HaulageQuotationRecord, HaulageStatus } from '../store';
import { haulageQuotationView, paymentView, truckAssignmentView, tripView } from '../views';
import { readPaymentBody, rejectForbiddenPaymentFields } from '../validate/payment';
import {
	assertNoLivePayment,
	requireCredit,
	requireQuotation,
	requireUnexpired,
	startPayment,
} from './payable';

const BASE = '/partner-api/haulage/quotations';

function findQuotation(ctx: RouteContext): HaulageQuotationRecord {
	const record = ctx.org.haulageQuotations.get(ctx.params.quotationId);
	if (!record) throw notFound('Haulage quotation', ctx.params.quotationId);
	return record;
}

function requireStatus(record: HaulageQuotationRecord, allowed: HaulageStatus[], action: string) {
	if (!allowed.includes(record.status)) {
		throw conflict(
			'INVALID_STATE',
			`Haulage quotation ${record.quotationId} is ${record.status}; only a ${allowed.join(' or ')} quotation can be ${action}.`,
		);
	}
}

/**
 * Paying or accepting credit commits the partner; the quotation must be open, and unexpired
 * unless the partner had already accepted it.
 */
function assertCommittable(
	ctx: RouteContext,
	record: HaulageQuotationRecord,
	allowed: HaulageStatus[],
	action: string,
) {
	const what = `Haulage quotation ${record.quotationId}`;
	const quotation = requireQuotation(record.quotation, what);
	requireStatus(record, allowed, action);
	assertNoLivePayment(ctx, record, what);
	if (record.status === 'QUOTED') requireUnexpired(quotation, ctx.now, what);
	return { quotation, what };
}

function transition(
	ctx: RouteContext,
	record: HaulageQuotationRecord,
	status: HaulageStatus,
): { status: number; body: unknown } {
	record.status = status;
	record.updatedAt = ctx.now;
	return { status: 200, body: haulageQuotationView(record) };
}

export const haulageRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: BASE,
		capability: 'partner:write',
		handle(ctx) {
			const record: HaulageQuotationRecord = {
				quotationId: ctx.core.store.nextId('hq'),
				status: 'REQUESTED',
				paymentStatus: 'UNPAID',
				details: ctx.body,
				createdAt: ctx.now,
				updatedAt: ctx.now,
			};
			ctx.org.haulageQuotations.set(record.quotationId, record);
			return { status: 201, body: haulageQuotationView(record) };
		},
	},
	{
		method: 'GET',
		path: `${BASE}/:quotationId`,
		capability: 'partner:read',
		handle: (ctx) => ({ status: 200, body: haulageQuotationView(findQuotation(ctx)) }),
	},
	{
		method: 'POST',
		path: `${BASE}/:quotationId/accept`,
		capability: 'partner:write',
		handle(ctx) {
			const record = findQuotation(ctx);
			const what = `Haulage quotation ${record.quotationId}`;
			const quotation = requireQuotation(record.quotation, what);
			requireStatus(record, ['QUOTED'], 'accepted');
			requireUnexpired(quotation, ctx.now, what);
			return transition(ctx, record, 'ACCEPTED');
		},
	},
	{
		method: 'POST',
		path: `${BASE}/:quotationId/decline`,
		capability: 'partner:write',
		handle(ctx) {
			const record = findQuotation(ctx);
			requireStatus(record, ['QUOTED'], 'declined');
			return transition(ctx, record, 'DECLINED');
		},
	},
	{
		method: 'POST',
		path: `${BASE}/:quotationId/payment`,
		capability: 'partner:write',
		handle(ctx) {
			const record = findQuotation(ctx);
			const choice = readPaymentBody(ctx.body, {
				creditAccepted: true,
				stageAccepted: true,
				cards: ctx.org.savedCards,
			});
			const { quotation, what } = assertCommittable(
				ctx,
				record,
				['QUOTED', 'ACCEPTED', 'ASSIGNED'],
				'paid',
			);
			if (choice.paymentMethod === 'CREDIT') requireCredit(ctx.org, quotation, what);
			const payment = startPayment(
				ctx,
				record,
				{ type: 'HAULAGE_QUOTATION', id: record.quotationId },
				choice,
				quotation,
			);
			if (record.status === 'QUOTED') record.status = 'ACCEPTED';
			return { status: 201, body: paymentView(payment) };
		},
	},
	{
		method: 'POST',
		path: `${BASE}/:quotationId/credit-accept`,
		capability: 'partner:write',
		handle(ctx) {
			const record = findQuotation(ctx);
			rejectForbiddenPaymentFields(ctx.body);
			const { quotation, what } = assertCommittable(
				ctx,
				record,
				['QUOTED', 'ACCEPTED'],
				'accepted on credit',
			);
			requireCredit(ctx.org, quotation, what);
			return transition(ctx, record, 'CREDIT_ACCEPTED');
		},
	},
	{
		method: 'GET',
		path: '/partner-api/haulage/tracking/trucks',
		capability: 'partner:read',
		handle: (ctx) => ({
			status: 200,
			body: [...ctx.org.truckAssignments.values()].map(truckAssignmentView),
		}),
	},
	{
		method: 'GET',
		path: '/partner-api/haulage/tracking/trucks/:assignmentId',
		capability: 'partner:read',
		handle(ctx) {
			const assignment = ctx.org.truckAssignments.get(ctx.params.assignmentId);
			if (!assignment) throw notFound('Truck assignment', ctx.params.assignmentId);
			return { status: 200, body: truckAssignmentView(assignment) };
		},
	},
	{
		method: 'GET',
		path: '/partner-api/haulage/trips/:tripId',
		capability: 'partner:read',
		handle(ctx) {
			const trip = ctx.org.trips.get(ctx.params.tripId);
			if (!trip) throw notFound('Trip', ctx.params.tripId);
			return { status: 200, body: tripView(trip) };
		},
	},
];
