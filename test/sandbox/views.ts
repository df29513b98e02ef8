// What the partner sees of each record. Support cases are built from an allow-list, so internal
// notes and staff metadata can never leak through a new field.
import type {
	BookingRecord,
	HaulageQuotationRecord,
	PaymentRecord,
	Quotation,
	QuoteRecord,
	QuoteRequestRecord,
	SupportCaseRecord,
	TimelineEntry,
	TripRecord,
	TruckAssignmentRecord,
} from './store';

export const iso = (ms: number): string => new Date(ms).toISOString();

export function quotationView(q: Quotation | undefined, now = Date.now()) {
	if (!q) return null;
	return {
		amount: q.amount,
		currency: q.currency,
		creditTerms: q.creditTerms,
		issuedAt: iso(q.issuedAt),
		expiresAt: iso(q.expiresAt),
		expired: now >= q.expiresAt,
	};
}

export function quoteView(q: QuoteRecord, now = Date.now()) {
	return {
		quoteId: q.quoteId,
		status: q.bookingId ? 'BOOKED' : now >= q.expiresAt ? 'EXPIRED' : 'VALID',
		routeForm: q.form,
		price: q.price,
		expiresAt: iso(q.expiresAt),
		createdAt: iso(q.createdAt),
		...q.route,
		...q.options,
	};
}

export function bookingView(b: BookingRecord) {
	return {
		bookingId: b.bookingId,
		quoteId: b.quoteId,
		status: b.status,
		paymentStatus: b.paymentStatus,
		paymentReference: b.paymentReference ?? null,
		routeForm: b.form,
		price: b.price,
		...b.route,
		...b.options,
		createdAt: iso(b.createdAt),
		updatedAt: iso(b.updatedAt),
	};
}

export function paymentView(p: PaymentRecord) {
	return {
		paymentReference: p.reference,
		reference: p.reference,
		status: p.status,
		paymentMethod: p.paymentMethod,
		paymentMethodId: p.paymentMethodId,
		paymentStage: p.paymentStage,
		amount: p.amount,
		currency: p.currency,
		resourceType: p.resourceType,
		resourceId: p.resourceId,
		createdAt: iso(p.createdAt),
		updatedAt: iso(p.updatedAt),
	};
}

export function quoteRequestView(r: QuoteRequestRecord) {
	return {
		quoteRequestId: r.quoteRequestId,
		serviceType: 'GO_BULK',
		status: r.status,
		paymentStatus: r.paymentStatus,
		paymentReference: r.paymentReference ?? null,
		...r.request,
		quotation: quotationView(r.quotation),
		createdAt: iso(r.createdAt),
		updatedAt: iso(r.updatedAt),
	};
}

export function haulageQuotationView(h: HaulageQuotationRecord) {
	return {
		quotationId: h.quotationId,
		serviceType: 'HAUL',
		status: h.status,
		paymentStatus: h.paymentStatus,
		paymentReference: h.paymentReference ?? null,
		details: h.details,
		quotation: quotationView(h.quotation),
		assignmentId: h.assignmentId ?? null,
		tripId: h.tripId ?? null,
		createdAt: iso(h.createdAt),
		updatedAt: iso(h.updatedAt),
	};
}

export function truckAssignmentView(a: TruckAssignmentRecord) {
	return {
		assignmentId: a.assignmentId,
		tripId: a.tripId,
		quotationId: a.quotationId,
		status: a.status,
		truck: a.truck,
		driver: a.driver,
		lastPosition: { ...a.lastPosition, recordedAt: iso(a.lastPosition.recordedAt) },
		createdAt: iso(a.createdAt),
	};
}

export function tripView(t: TripRecord) {
	return {
		tripId: t.tripId,
		assignmentId: t.assignmentId,
		quotationId: t.quotationId,
		status: t.status,
		origin: t.origin,
		destination: t.destination,
		scheduledDepartureAt: iso(t.scheduledDepartureAt),
		estimatedArrivalAt: iso(t.estimatedArrivalAt),
		createdAt: iso(t.createdAt),
		updatedAt: iso(t.updatedAt),
	};
}

export function timelineEntryView(e: TimelineEntry) {
	return { entryId: e.entryId, type: e.type, author: e.author, message: e.message, at: iso(e.at) };
}

export function supportCaseSummaryView(c: SupportCaseRecord) {
	return {
		caseId: c.caseId,
		title: c.title,
		summary: c.summary ?? null,
		category: c.category ?? null,
		priority: c.priority ?? null,
		status: c.status,
		relatedResourceType: c.relatedResourceType ?? null,
		relatedResourceId: c.relatedResourceId ?? null,
		metadata: c.metadata ?? {},
		createdAt: iso(c.createdAt),
		updatedAt: iso(c.updatedAt),
	};
}

export function supportCaseView(c: SupportCaseRecord) {
	return {
		...supportCaseSummaryView(c),
		timeline: c.timeline.filter((e) => e.visibility === 'REPORTER').map(timelineEntryView),
	};
}
