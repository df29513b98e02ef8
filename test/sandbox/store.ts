// In-memory records, kept per organization so another org's id is simply not found.
import { DEFAULT_CREDIT, type SavedCard, SAVED_CARDS } from './fixtures';
import type { OrgId } from './types';
import type { JsonObject } from './validate/fields';
import type { PaymentMethod } from './validate/payment';
import type { DirectRoute, RouteForm, RouteOptions } from './validate/route';

export interface Money {
	amount: number;
	currency: string;
}

/** An operator's price for a GO_BULK request or a HAUL quotation. */
export interface Quotation extends Money {
	creditTerms: boolean;
	issuedAt: number;
	expiresAt: number;
}

export type PaymentProgress = 'UNPAID' | 'PENDING' | 'PAID' | 'FAILED';

/** Anything a payment can be initiated for. */
export interface Payable {
	paymentStatus: PaymentProgress;
	paymentReference?: string;
	updatedAt: number;
}

export interface QuoteRecord {
	quoteId: string;
	form: RouteForm;
	route: DirectRoute;
	options: RouteOptions;
	price: Money;
	createdAt: number;
	expiresAt: number;
	bookingId?: string;
}

export interface BookingRecord extends Payable {
	bookingId: string;
	quoteId: string;
	form: RouteForm;
	route: DirectRoute;
	options: RouteOptions;
	price: Money;
	status: 'AWAITING_PAYMENT' | 'CONFIRMED';
	createdAt: number;
}

export type PaymentResourceType = 'BOOKING' | 'QUOTE_REQUEST' | 'HAULAGE_QUOTATION';

export interface PaymentRecord {
	reference: string;
	resourceType: PaymentResourceType;
	resourceId: string;
	paymentMethod: PaymentMethod;
	paymentMethodId?: string;
	paymentStage?: string;
	amount: number;
	currency: string;
	status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
	createdAt: number;
	updatedAt: number;
}

export interface QuoteRequestRecord extends Payable {
	quoteRequestId: string;
	status: 'PENDING_QUOTATION' | 'QUOTED' | 'CREDIT_ACCEPTED';
	/** The validated request fields as sent. */
	request: JsonObject;
	quotation?: Quotation;
	createdAt: number;
}

export type HaulageStatus =
	| 'REQUESTED'
	| 'QUOTED'
	| 'ACCEPTED'
	| 'DECLINED'
	| 'CREDIT_ACCEPTED'
	| 'ASSIGNED';

export interface HaulageQuotationRecord extends Payable {
	quotationId: string;
	status: HaulageStatus;
	/** Free-form shipment and route details as sent. */
	details: JsonObject;
	quotation?: Quotation;
	assignmentId?: string;
	tripId?: string;
	createdAt: number;
}

export const TRUCK_STATUSES = [
	'ASSIGNED',
	'EN_ROUTE_TO_PICKUP',
	'IN_TRANSIT',
	'DELIVERED',
] as const;
export type TruckStatus = (typeof TRUCK_STATUSES)[number];

export interface TruckAssignmentRecord {
	assignmentId: string;
	tripId: string;
	quotationId: string;
	status: TruckStatus;
	truck: { plateNumber: string; type: string; capacityTonnes: number };
	driver: { name: string; phone: string };
	lastPosition: { latitude: number; longitude: number; recordedAt: number };
	createdAt: number;
}

export interface TripRecord {
	tripId: string;
	assignmentId: string;
	quotationId: string;
	status: TripStatus;
	origin: unknown;
	destination: unknown;
	scheduledDepartureAt: number;
	estimatedArrivalAt: number;
	createdAt: number;
	updatedAt: number;
}

export const TRIP_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'COMPLETED'] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];

export interface TimelineEntry {
	entryId: string;
	type: 'CREATED' | 'COMMENT' | 'CLOSED' | 'REOPENED' | 'INTERNAL_NOTE';
	author: 'PARTNER' | 'SUPPORT' | 'STAFF';
	/** INTERNAL entries are hidden from every partner response. */
	visibility: 'REPORTER' | 'INTERNAL';
	message?: string;
	at: number;
}

export interface SupportCaseRecord {
	caseId: string;
	title: string;
	summary?: string;
	category?: string;
	priority?: string;
	status: 'OPEN' | 'CLOSED';
	relatedResourceType?: string;
	relatedResourceId?: string;
	metadata?: JsonObject;
	timeline: TimelineEntry[];
	/** Private staff metadata: never returned to the partner. */
	staffMetadata: JsonObject;
	createdAt: number;
	updatedAt: number;
}

export interface OrgData {
	creditEnabled: boolean;
	savedCards: readonly SavedCard[];
	quotes: Map<string, QuoteRecord>;
	bookings: Map<string, BookingRecord>;
	payments: Map<string, PaymentRecord>;
	quoteRequests: Map<string, QuoteRequestRecord>;
	haulageQuotations: Map<string, HaulageQuotationRecord>;
	truckAssignments: Map<string, TruckAssignmentRecord>;
	trips: Map<string, TripRecord>;
	supportCases: Map<string, SupportCaseRecord>;
}

const COLLECTIONS = [
	'quotes',
	'bookings',
	'payments',
	'quoteRequests',
	'haulageQuotations',
	'truckAssignments',
	'trips',
	'supportCases',
] as const;

type Collection = (typeof COLLECTIONS)[number];
type RecordOf<C extends Collection> = OrgData[C] extends Map<string, infer R> ? R : never;

/** Deep copies of an organization's records (support cases include their hidden parts). */
export type OrgState = {
	creditEnabled: boolean;
	savedCards: SavedCard[];
	counts: Record<Collection, number>;
} & { [C in Collection]: RecordOf<C>[] };

function emptyOrg(org: OrgId): OrgData {
	return {
		creditEnabled: DEFAULT_CREDIT[org],
		savedCards: SAVED_CARDS[org],
		quotes: new Map(),
		bookings: new Map(),
		payments: new Map(),
		quoteRequests: new Map(),
		haulageQuotations: new Map(),
		truckAssignments: new Map(),
		trips: new Map(),
		supportCases: new Map(),
	};
}

export class Store {
	orgs: Record<OrgId, OrgData> = { A: emptyOrg('A'), B: emptyOrg('B') };

	/** Never reset, so an id is never reused within one sandbox run. */
	private lastId = 0;

	nextId(prefix: string): string {
		return `${prefix}_${++this.lastId}`;
	}

	reset(): void {
		this.orgs = { A: emptyOrg('A'), B: emptyOrg('B') };
	}

	/** For admin operations, which act on any organization's records. */
	find<C extends Collection>(
		collection: C,
		id: string,
	): { org: OrgId; record: RecordOf<C> } | undefined {
		for (const org of ['A', 'B'] as const) {
			const record = this.orgs[org][collection].get(id) as RecordOf<C> | undefined;
			if (record) return { org, record };
		}
		return undefined;
	}

	snapshot(org: OrgId): OrgState {
		const data = this.orgs[org];
		const state = {
			creditEnabled: data.creditEnabled,
			savedCards: structuredClone([...data.savedCards]),
			counts: {} as Record<Collection, number>,
		} as OrgState;
		for (const c of COLLECTIONS) {
			state.counts[c] = data[c].size;
			(state as Record<Collection, unknown[]>)[c] = structuredClone([...data[c].values()]);
		}
		return state;
	}
}
