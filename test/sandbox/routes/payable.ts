// Rules shared by everything that can be paid: one live payment at a time, operator quotations
// that must exist and be unexpired, and credit only where it was granted.
import { conflict } from '../errors';
import type { RouteContext } from '../router';
import type {
	Money,
	OrgData,
	Payable,
	PaymentRecord,
	PaymentResourceType,
	Quotation,
} from '../store';
import { iso } from '../views';
import type { PaymentChoice } from '../validate/payment';

export function assertNoLivePayment(ctx: RouteContext, target: Payable, what: string): void {
	if (ctx.core.settings.repeatActions) return;
	if (target.paymentStatus === 'PENDING') {
		throw conflict(
			'PAYMENT_IN_PROGRESS',
			`${what} already has a pending payment (${target.paymentReference}); check it with GET /partner-api/payments/${target.paymentReference} instead of paying again.`,
		);
	}
	if (target.paymentStatus === 'PAID') {
		throw conflict('ALREADY_PAID', `${what} is already paid (${target.paymentReference}).`);
	}
}

export function startPayment(
	ctx: RouteContext,
	target: Payable,
	resource: { type: PaymentResourceType; id: string },
	choice: PaymentChoice,
	price: Money,
): PaymentRecord {
	const payment: PaymentRecord = {
		reference: ctx.core.store.nextId('pay'),
		resourceType: resource.type,
		resourceId: resource.id,
		...choice,
		amount: price.amount,
		currency: price.currency,
		status: 'PENDING',
		createdAt: ctx.now,
		updatedAt: ctx.now,
	};
	ctx.org.payments.set(payment.reference, payment);
	target.paymentStatus = 'PENDING';
	target.paymentReference = payment.reference;
	target.updatedAt = ctx.now;
	return payment;
}

export function requireQuotation(quotation: Quotation | undefined, what: string): Quotation {
	if (!quotation) {
		throw conflict(
			'QUOTATION_NOT_ISSUED',
			`${what} has no quotation yet; wait until the operator sends one (fetch it again later).`,
		);
	}
	return quotation;
}

export function requireUnexpired(quotation: Quotation, now: number, what: string): void {
	if (now >= quotation.expiresAt) {
		throw conflict(
			'QUOTATION_EXPIRED',
			`The quotation for ${what} expired at ${iso(quotation.expiresAt)}; ask the operator for a new one.`,
		);
	}
}

export function requireCredit(org: OrgData, quotation: Quotation, what: string): void {
	if (!org.creditEnabled) {
		throw conflict(
			'CREDIT_NOT_ENABLED',
			'Partner credit is not enabled for this organization; pay with SAVED_CARD instead.',
		);
	}
	if (!quotation.creditTerms) {
		throw conflict(
			'CREDIT_TERMS_NOT_OFFERED',
			`The quotation for ${what} was not issued with credit terms; pay with SAVED_CARD instead.`,
		);
	}
}
