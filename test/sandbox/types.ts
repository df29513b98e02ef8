// The sandbox's public types: tests, benchmarks, the e2e suite and the playground code against these.
import type { SandboxState } from './admin';
import type { SendWebhookOptions, SendWebhookResult } from './webhook';

export type { SandboxState } from './admin';
export type { OrgState } from './store';
export type { SendWebhookOptions, SendWebhookResult, WebhookMode } from './webhook';

export type OrgId = 'A' | 'B';

export interface SandboxKeys {
	full: string;
	noSupport: string;
	readOnly: string;
	otherOrg: string;
}

export type ListShape = 'array' | 'cursor';

export interface SandboxOptions {
	/** 0 (default) picks a free port; the host is always 127.0.0.1. */
	port?: number;
	/** Validity of direct quotes and default validity of operator quotations; default 15 min. */
	quoteTtlMs?: number;
	/** Accepted requests per API key per rolling second; null (default) = unlimited. */
	rateLimitPerSecond?: number | null;
	/** Fixed keys (playground); missing ones are random per start. */
	keys?: Partial<SandboxKeys>;
	adminToken?: string;
	/** Shape of GET /partner-api/support-cases; default 'array'. */
	listShape?: ListShape;
	/** Seeds the RNG behind rate500/rate503. */
	seed?: number;
}

export interface RequestLogEntry {
	seq: number;
	at: number;
	method: string;
	/** Path after the base /api/v1 (the full path when the request was outside the base). */
	path: string;
	query: Record<string, string>;
	/** Lower-cased names, raw values. */
	headers: Record<string, string>;
	/** Parsed JSON, the raw string when it is not JSON, undefined when empty. */
	body: unknown;
	/** 0 when the response was deliberately dropped. */
	status: number;
	replayed?: boolean;
}

export type PathMatcher = string | RegExp;

export interface FailNextFault {
	status: 500 | 502 | 503 | 429;
	/** Default 1. */
	times?: number;
	retryAfterSeconds?: number;
	method?: string;
	path?: PathMatcher;
}

export interface FaultPlan {
	failNext?: FailNextFault[];
	/** Probability (0..1) that a partner request gets 500. */
	rate500?: number;
	/** Probability (0..1) that a partner request gets 503. */
	rate503?: number;
	/** The next N successful, non-replayed POSTs are committed, then their socket is destroyed. */
	dropAfterCommit?: number;
	/** Delay before every partner request is handled (after its idempotency key is reserved). */
	delayMs?: number;
}

export interface QuotationInput {
	amount?: number;
	currency?: string;
	creditTerms?: boolean;
	ttlMs?: number;
}

export interface HaulageAssignment {
	assignmentId: string;
	tripId: string;
}

export interface PaymentView {
	paymentReference: string;
	reference: string;
	status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
	[field: string]: unknown;
}

export interface SandboxAdmin {
	issueQuoteRequestQuotation(id: string, quotation?: QuotationInput): Record<string, unknown>;
	issueHaulageQuotation(id: string, quotation?: QuotationInput): Record<string, unknown>;
	assignHaulage(quotationId: string): HaulageAssignment;
	settlePayment(reference: string): PaymentView;
	failPayment(reference: string): PaymentView;
	setCredit(org: OrgId, enabled: boolean): void;
	/** Replaces the whole fault plan; {} clears it. */
	setFaults(plan: FaultPlan): void;
	setRateLimit(perSecond: number | null): void;
	/** Applies to quotes and quotations issued from now on. */
	setQuoteTtl(ms: number): void;
	state(): SandboxState;
	sendWebhook(options: SendWebhookOptions): Promise<SendWebhookResult>;
	/** Back to a fresh start with the same keys, admin token and options. */
	reset(): void;
}

export interface RequestFilter {
	method?: string;
	path?: PathMatcher;
}

export interface Sandbox {
	/** Base URL for the credential, e.g. http://127.0.0.1:PORT/api/v1 */
	url: string;
	/** http://127.0.0.1:PORT */
	origin: string;
	keys: SandboxKeys;
	adminToken: string;
	hubs: { active: string[]; inactive: string[] };
	/** Saved cards of organization A. */
	savedCards: { enabled: string; notEnabled: string };
	/** Partner-API calls only (never admin calls), in arrival order. */
	requests(filter?: RequestFilter): RequestLogEntry[];
	clearLog(): void;
	admin: SandboxAdmin;
	/** Closes the server and every open socket; resolves when fully closed. */
	close(): Promise<void>;
}
