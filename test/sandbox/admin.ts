// The operator's side and the test controls, in process. The HTTP admin routes call these too.
import type { SandboxCore, Settings } from './core';
import { ApiError, conflict } from './errors';
import { CURRENCY, HUBS } from './fixtures';
import type { FaultInjector } from './faults';
import { MIN_BOMB_BYTES } from './streamingAnswers';
import {
	TRIP_STATUSES,
	TRUCK_STATUSES,
	type OrgData,
	type OrgState,
	type Payable,
	type PaymentRecord,
	type Quotation,
} from './store';
import type {
	FaultPlan,
	FaultRule,
	OrgId,
	QuotationInput,
	RedirectTarget,
	RefuseFault,
	SandboxAdmin,
} from './types';
import {
	haulageQuotationView,
	paymentView,
	quoteRequestView,
	tripView,
	truckAssignmentView,
} from './views';

export interface SandboxState {
	A: OrgState;
	B: OrgState;
	settings: Settings;
	faults: ReturnType<FaultInjector['view']>;
	/** Stored or in-flight idempotency keys, both orgs together. */
	idempotencyKeys: number;
}

const DEFAULT_AMOUNT = { goBulk: 185_000, haul: 650_000 };

function adminNotFound(what: string, id: string): ApiError {
	return new ApiError(404, 'NOT_FOUND', `${what} ${id} does not exist in the sandbox.`);
}

function badInput(field: string, message: string): ApiError {
	return new ApiError(400, 'VALIDATION_ERROR', message, { field });
}

function makeQuotation(
	input: QuotationInput,
	defaultAmount: number,
	defaultTtlMs: number,
): Quotation {
	const {
		amount = defaultAmount,
		currency = CURRENCY,
		creditTerms = false,
		ttlMs = defaultTtlMs,
	} = input;
	if (typeof amount !== 'number' || !(amount > 0))
		throw badInput('amount', 'amount must be a positive number.');
	if (typeof currency !== 'string' || !currency)
		throw badInput('currency', 'currency must be a string.');
	if (typeof creditTerms !== 'boolean')
		throw badInput('creditTerms', 'creditTerms must be a boolean.');
	if (typeof ttlMs !== 'number' || !(ttlMs >= 0))
		throw badInput('ttlMs', 'ttlMs must be a number >= 0.');
	const now = Date.now();
	return { amount, currency, creditTerms, issuedAt: now, expiresAt: now + ttlMs };
}

function oneOf<T extends string>(allowed: readonly T[], value: unknown, field: string): T {
	if (!allowed.includes(value as T)) {
		throw badInput(
			field,
			`${field} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}.`,
		);
	}
	return value as T;
}

function payableOf(org: OrgData, payment: PaymentRecord): Payable | undefined {
	if (payment.resourceType === 'BOOKING') return org.bookings.get(payment.resourceId);
	if (payment.resourceType === 'QUOTE_REQUEST') return org.quoteRequests.get(payment.resourceId);
	return org.haulageQuotations.get(payment.resourceId);
}

const RULE_KINDS = [
	'status',
	'redirect',
	'html200',
	'html502',
	'empty200',
	'resetAfterCommit',
	'slow',
	'refuse',
	'trickle',
	'noHeaders',
	'gzipBomb',
	'bigList',
];
const REFUSAL_STATUSES = [400, 403, 404, 422];
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

function isWholeNumber(n: unknown, min: number): boolean {
	return typeof n === 'number' && Number.isInteger(n) && n >= min;
}

function validateRule(rule: FaultRule): void {
	const kind = rule.kind ?? 'status';
	if (!RULE_KINDS.includes(kind)) {
		throw badInput(
			'failNext.kind',
			`failNext kind must be one of ${RULE_KINDS.join(', ')}; got ${kind}.`,
		);
	}
	if (rule.times !== undefined && !isWholeNumber(rule.times, 1)) {
		throw badInput('failNext.times', 'failNext times must be a whole number >= 1.');
	}
	if (rule.method !== undefined && typeof rule.method !== 'string') {
		throw badInput('failNext.method', 'failNext method must be a string.');
	}
	if (rule.kind === undefined || rule.kind === 'status') {
		if (![500, 502, 503, 429].includes(rule.status)) {
			throw badInput(
				'failNext.status',
				`failNext status must be 500, 502, 503 or 429; got ${rule.status}.`,
			);
		}
		if (rule.retryAfterSeconds !== undefined && !isWholeNumber(rule.retryAfterSeconds, 0)) {
			throw badInput(
				'failNext.retryAfterSeconds',
				'failNext retryAfterSeconds must be a whole number >= 0.',
			);
		}
	}
	if (
		rule.kind === 'redirect' &&
		rule.status !== undefined &&
		!REDIRECT_STATUSES.includes(rule.status)
	) {
		throw badInput(
			'failNext.status',
			`A redirect's status must be one of ${REDIRECT_STATUSES.join(', ')}; got ${rule.status}.`,
		);
	}
	if ((rule.kind === 'html200' || rule.kind === 'html502') && rule.title !== undefined) {
		if (typeof rule.title !== 'string') {
			throw badInput('failNext.title', 'failNext title must be a string.');
		}
	}
	if (rule.kind === 'slow' && !(typeof rule.delayMs === 'number' && rule.delayMs >= 0)) {
		throw badInput('failNext.delayMs', 'A slow rule needs delayMs, a number >= 0.');
	}
	if (rule.kind === 'refuse') validateRefusal(rule);
	validateStreamingRule(rule);
}

/** Bounds of the faults that write their answer over time; a field out of them is a 400. */
function validateStreamingRule(rule: FaultRule): void {
	const whole = (value: unknown, field: string, min: number, max: number) => {
		if (value !== undefined && !(isWholeNumber(value, min) && (value as number) <= max)) {
			throw badInput(
				`failNext.${field}`,
				`failNext ${field} must be a whole number from ${min} to ${max}.`,
			);
		}
	};
	if (rule.kind === 'trickle') {
		whole(rule.intervalMs, 'intervalMs', 1, 60_000);
		whole(rule.status, 'status', 200, 599);
	}
	if (rule.kind === 'gzipBomb') whole(rule.inflatedBytes, 'inflatedBytes', MIN_BOMB_BYTES, 2 ** 32);
	if (rule.kind === 'bigList') {
		whole(rule.records, 'records', 0, 1_000_000);
		whole(rule.recordBytes, 'recordBytes', 1, 1024 * 1024);
		if (rule.gzip !== undefined && typeof rule.gzip !== 'boolean') {
			throw badInput('failNext.gzip', 'failNext gzip must be a boolean.');
		}
		if (rule.method !== undefined && rule.method.toUpperCase() !== 'GET') {
			throw badInput('failNext.method', 'A bigList rule answers GETs only.');
		}
	}
}

function validateRefusal(rule: RefuseFault): void {
	if (rule.status !== undefined && !REFUSAL_STATUSES.includes(rule.status)) {
		throw badInput(
			'failNext.status',
			`A refuse rule's status must be one of ${REFUSAL_STATUSES.join(', ')}; got ${rule.status}.`,
		);
	}
	for (const field of ['code', 'message', 'field'] as const) {
		const value = rule[field];
		if (value !== undefined && !(typeof value === 'string' && value !== '')) {
			throw badInput(`failNext.${field}`, `failNext ${field} must be a non-empty string.`);
		}
	}
}

function validateFaultPlan(plan: FaultPlan): void {
	if (plan.failNext !== undefined && !Array.isArray(plan.failNext)) {
		throw badInput('failNext', 'failNext must be an array.');
	}
	for (const rule of plan.failNext ?? []) validateRule(rule);
	for (const field of ['rate500', 'rate503'] as const) {
		const rate = plan[field];
		if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1)) {
			throw badInput(field, `${field} must be a probability from 0 to 1.`);
		}
	}
	for (const field of ['dropAfterCommit', 'delayMs'] as const) {
		const n = plan[field];
		if (n !== undefined && !(typeof n === 'number' && n >= 0)) {
			throw badInput(field, `${field} must be a number >= 0.`);
		}
	}
}

export function createAdmin(core: SandboxCore, redirectTarget: RedirectTarget): SandboxAdmin {
	const { store } = core;

	function finishPayment(reference: string, outcome: 'SUCCEEDED' | 'FAILED') {
		const found = store.find('payments', reference);
		if (!found) throw adminNotFound('Payment', reference);
		const payment = found.record;
		if (payment.status !== 'PENDING') {
			throw conflict('PAYMENT_NOT_PENDING', `Payment ${reference} is already ${payment.status}.`);
		}
		const now = Date.now();
		payment.status = outcome;
		payment.updatedAt = now;
		const target = payableOf(store.orgs[found.org], payment);
		if (target) {
			target.paymentStatus = outcome === 'SUCCEEDED' ? 'PAID' : 'FAILED';
			target.updatedAt = now;
		}
		if (outcome === 'SUCCEEDED' && payment.resourceType === 'BOOKING') {
			const booking = store.orgs[found.org].bookings.get(payment.resourceId);
			if (booking) booking.status = 'CONFIRMED';
		}
		return paymentView(payment);
	}

	return {
		issueQuoteRequestQuotation(id, input = {}) {
			const found = store.find('quoteRequests', id);
			if (!found) throw adminNotFound('Quote request', id);
			const r = found.record;
			if (
				r.status === 'CREDIT_ACCEPTED' ||
				r.paymentStatus === 'PENDING' ||
				r.paymentStatus === 'PAID'
			) {
				throw conflict(
					'INVALID_STATE',
					`Quote request ${id} is already committed; it cannot be re-quoted.`,
				);
			}
			r.quotation = makeQuotation(input, DEFAULT_AMOUNT.goBulk, core.settings.quoteTtlMs);
			r.status = 'QUOTED';
			r.updatedAt = Date.now();
			return quoteRequestView(r);
		},

		issueHaulageQuotation(id, input = {}) {
			const found = store.find('haulageQuotations', id);
			if (!found) throw adminNotFound('Haulage quotation', id);
			const h = found.record;
			if (h.status !== 'REQUESTED' && h.status !== 'QUOTED') {
				throw conflict(
					'INVALID_STATE',
					`Haulage quotation ${id} is ${h.status}; it cannot be re-quoted.`,
				);
			}
			h.quotation = makeQuotation(input, DEFAULT_AMOUNT.haul, core.settings.quoteTtlMs);
			h.status = 'QUOTED';
			h.updatedAt = Date.now();
			return haulageQuotationView(h);
		},

		assignHaulage(quotationId) {
			const found = store.find('haulageQuotations', quotationId);
			if (!found) throw adminNotFound('Haulage quotation', quotationId);
			const h = found.record;
			if (h.status !== 'ACCEPTED' && h.status !== 'CREDIT_ACCEPTED') {
				throw conflict(
					'INVALID_STATE',
					`Haulage quotation ${quotationId} is ${h.status}; assign a truck after the partner accepted, paid or accepted credit.`,
				);
			}
			const org = store.orgs[found.org];
			const now = Date.now();
			const assignmentId = store.nextId('asg');
			const tripId = store.nextId('trip');
			const depot = HUBS[0];
			org.truckAssignments.set(assignmentId, {
				assignmentId,
				tripId,
				quotationId,
				status: 'ASSIGNED',
				truck: {
					plateNumber: `LAG-${assignmentId.split('_')[1]}-TRK`,
					type: 'FLATBED',
					capacityTonnes: 30,
				},
				driver: { name: 'Sandbox Driver', phone: '+2348000000001' },
				lastPosition: { latitude: depot.latitude, longitude: depot.longitude, recordedAt: now },
				createdAt: now,
			});
			org.trips.set(tripId, {
				tripId,
				assignmentId,
				quotationId,
				status: 'SCHEDULED',
				origin: h.details.origin ?? h.details.pickupAddress ?? null,
				destination: h.details.destination ?? h.details.dropoffAddress ?? null,
				scheduledDepartureAt: now + 3_600_000,
				estimatedArrivalAt: now + 10 * 3_600_000,
				createdAt: now,
				updatedAt: now,
			});
			Object.assign(h, { status: 'ASSIGNED', assignmentId, tripId, updatedAt: now });
			return { assignmentId, tripId };
		},

		moveTruck(assignmentId, move = {}) {
			const found = store.find('truckAssignments', assignmentId);
			if (!found) throw adminNotFound('Truck assignment', assignmentId);
			const truck = found.record;
			// No position given: a step north, as a truck on the road reports one.
			const stepped = move.latitude === undefined && move.longitude === undefined;
			const {
				latitude = truck.lastPosition.latitude + (stepped ? 0.01 : 0),
				longitude = truck.lastPosition.longitude,
			} = move;
			if (typeof latitude !== 'number' || !(latitude >= -90 && latitude <= 90))
				throw badInput('latitude', 'latitude must be a number from -90 to 90.');
			if (typeof longitude !== 'number' || !(longitude >= -180 && longitude <= 180))
				throw badInput('longitude', 'longitude must be a number from -180 to 180.');
			if (move.status !== undefined) truck.status = oneOf(TRUCK_STATUSES, move.status, 'status');
			truck.lastPosition = { latitude, longitude, recordedAt: Date.now() };
			return truckAssignmentView(truck);
		},

		progressTrip(tripId, status) {
			const found = store.find('trips', tripId);
			if (!found) throw adminNotFound('Trip', tripId);
			const trip = found.record;
			const next = TRIP_STATUSES[TRIP_STATUSES.indexOf(trip.status) + 1];
			if (status === undefined && next === undefined) {
				throw conflict('INVALID_STATE', `Trip ${tripId} is already ${trip.status}.`);
			}
			trip.status = status === undefined ? next : oneOf(TRIP_STATUSES, status, 'status');
			trip.updatedAt = Date.now();
			return tripView(trip);
		},

		settlePayment: (reference) => finishPayment(reference, 'SUCCEEDED'),
		failPayment: (reference) => finishPayment(reference, 'FAILED'),

		setCredit(org: OrgId, enabled: boolean) {
			if (org !== 'A' && org !== 'B') throw badInput('org', 'org must be A or B.');
			if (typeof enabled !== 'boolean') throw badInput('enabled', 'enabled must be a boolean.');
			store.orgs[org].creditEnabled = enabled;
		},

		setFaults(plan: FaultPlan) {
			validateFaultPlan(plan);
			core.faults.set(plan);
		},

		setRateLimit(perSecond: number | null, { headers = false }: { headers?: boolean } = {}) {
			if (perSecond !== null && !(Number.isInteger(perSecond) && perSecond >= 1)) {
				throw badInput('perSecond', 'perSecond must be a whole number >= 1, or null for no limit.');
			}
			if (typeof headers !== 'boolean') throw badInput('headers', 'headers must be a boolean.');
			core.settings.rateLimitPerSecond = perSecond;
			core.settings.rateHeaders = headers;
			core.limiter.setLimit(perSecond);
		},

		setLatency(ms: number) {
			if (typeof ms !== 'number' || !(ms >= 0 && ms <= 10_000)) {
				throw badInput('ms', 'ms must be a number from 0 to 10000.');
			}
			core.settings.latencyMs = ms;
		},

		setQuoteTtl(ms: number) {
			if (typeof ms !== 'number' || !(ms >= 0)) throw badInput('ms', 'ms must be a number >= 0.');
			core.settings.quoteTtlMs = ms;
		},

		setReplayRefusals(enabled: boolean) {
			if (typeof enabled !== 'boolean') throw badInput('enabled', 'enabled must be a boolean.');
			core.settings.replayRefusals = enabled;
		},

		setRepeatActions(enabled: boolean) {
			if (typeof enabled !== 'boolean') throw badInput('enabled', 'enabled must be a boolean.');
			core.settings.repeatActions = enabled;
		},

		state(): SandboxState {
			return {
				A: store.snapshot('A'),
				B: store.snapshot('B'),
				settings: { ...core.settings },
				faults: core.faults.view(),
				idempotencyKeys: core.idempotency.size,
			};
		},

		sendWebhook: (options) => core.webhooks.send(options),

		reset: () => {
			core.reset();
			redirectTarget.clear();
		},
	};
}
