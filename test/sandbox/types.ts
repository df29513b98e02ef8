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
	/** X-RateLimit-Limit, -Remaining and -Reset on every answer while limited; default off (429s only). */
	rateHeaders?: boolean;
	/** A network's round trip: each partner request and each answer held this long; default 0. */
	latencyMs?: number;
	/** Fixed keys (playground); missing ones are random per start. */
	keys?: Partial<SandboxKeys>;
	adminToken?: string;
	/** Shape of GET /partner-api/support-cases; default 'array'. */
	listShape?: ListShape;
	/** Seeds the RNG behind rate500/rate503. */
	seed?: number;
	/** Replay-refusals mode (sandbox choice): also store a handler's 4xx but 409/429; default off. */
	replayRefusals?: boolean;
	/** Repeat-actions mode (see Settings.repeatActions); default false. */
	repeatActions?: boolean;
}

/** The fault that shaped an answer (see README, Faults). */
export type AppliedFault = FaultKind | 'dropAfterCommit' | 'rate500' | 'rate503';

export interface RequestLogEntry {
	seq: number;
	at: number;
	/** When its answer was written, after any hold (`delayMs`): later requests may have seen it. */
	answeredAt: number;
	method: string;
	/** Path after the base /api/v1 (the full path when the request was outside the base). */
	path: string;
	query: Record<string, string>;
	/** Lower-cased names, raw values. */
	headers: Record<string, string>;
	/** Parsed JSON, the raw string when it is not JSON, undefined when empty. */
	body: unknown;
	/** 0 when the response was deliberately dropped (connection reset without an answer). */
	status: number;
	replayed?: boolean;
	/** Set when an injected fault shaped this answer. */
	fault?: AppliedFault;
	/**
	 * The client had closed the connection before the answer was ready (e.g. it timed out), or, for
	 * an answer written over time (trickle, noHeaders, gzipBomb, bigList), before it was complete.
	 */
	clientClosed?: true;
	/** Body bytes written so far by an answer written over time, as sent (compressed when gzip). */
	bytesSent?: number;
}

export type PathMatcher = string | RegExp;

/** Which requests a fault rule hits, and how many times. */
export interface FaultFilter {
	/** How many matching requests the rule hits; default 1. */
	times?: number;
	/** Case-insensitive; any method when absent. */
	method?: string;
	/** Path after the base or full path (exact string), or a RegExp on the path after the base. */
	path?: PathMatcher;
}

/** An error status answered instead of the API, before auth; nothing is committed. */
export interface StatusFault extends FaultFilter {
	kind?: 'status';
	status: 500 | 502 | 503 | 429;
	/** Sent as Retry-After (whole seconds, any size); a 429 always has one (default 1). */
	retryAfterSeconds?: number;
}

/** @deprecated name kept for existing callers: a failNext rule with an error status. */
export type FailNextFault = StatusFault;

/** A redirect to the sandbox's redirect target (another origin), before auth; nothing committed. */
export interface RedirectFault extends FaultFilter {
	kind: 'redirect';
	/** Default 302. */
	status?: 301 | 302 | 303 | 307 | 308;
}

/** 200 text/html (html200) or 502 text/html (html502), before auth; nothing committed. */
export interface HtmlFault extends FaultFilter {
	kind: 'html200' | 'html502';
	/** The page's <title>; a default per kind. */
	title?: string;
}

/** 200 application/json with an empty body, before auth; nothing committed. */
export interface Empty200Fault extends FaultFilter {
	kind: 'empty200';
}

/** The request is processed and committed, then its socket is destroyed without an answer. */
export interface ResetAfterCommitFault extends FaultFilter {
	kind: 'resetAfterCommit';
}

/** The request waits delayMs after its key is reserved, then is processed and answered. */
export interface SlowFault extends FaultFilter {
	kind: 'slow';
	delayMs: number;
}

/** A status a refuse rule may answer. */
export type RefusalStatus = 400 | 403 | 404 | 422;

/**
 * Answers an error JSON instead of the handler, after the Idempotency-Key is reserved: a genuine
 * refusal of that key (stored for replay in replay-refusals mode); nothing is created.
 */
export interface RefuseFault extends FaultFilter {
	kind: 'refuse';
	/** Default 400. */
	status?: RefusalStatus;
	/** Default by status: VALIDATION_ERROR, FORBIDDEN, NOT_FOUND, UNPROCESSABLE_ENTITY. */
	code?: string;
	message?: string;
	/** Sent as the body's field when given. */
	field?: string;
}

/**
 * Headers at once, then the JSON body one byte every intervalMs, never ending until the client
 * goes away (a server or proxy that never finishes its answer), before auth; nothing committed.
 */
export interface TrickleFault extends FaultFilter {
	kind: 'trickle';
	/** Default 1000. */
	intervalMs?: number;
	/** Default 200. */
	status?: number;
}

/** No status line, no headers, nothing, until the client goes away; before auth. */
export interface NoHeadersFault extends FaultFilter {
	kind: 'noHeaders';
}

/**
 * 200 `Content-Encoding: gzip`: about 1 MB that inflates to inflatedBytes of JSON text (a
 * decompression bomb), before auth; nothing committed.
 */
export interface GzipBombFault extends FaultFilter {
	kind: 'gzipBomb';
	/** Default 1 GiB (1073741824). */
	inflatedBytes?: number;
}

/**
 * A large but honest answer of a GET in place of its handler (after auth, rate limit and
 * capability): a JSON list of `records` records of the endpoint's shape, each about recordBytes.
 */
export interface BigListFault extends FaultFilter {
	kind: 'bigList';
	/** Default 50000. */
	records?: number;
	/** Default 1000 (50000 records of 1000 bytes: a 50 MB list). */
	recordBytes?: number;
	/** Sent with Content-Encoding: gzip; default false. */
	gzip?: boolean;
}

export type FaultRule =
	| StatusFault
	| RedirectFault
	| HtmlFault
	| Empty200Fault
	| ResetAfterCommitFault
	| SlowFault
	| RefuseFault
	| TrickleFault
	| NoHeadersFault
	| GzipBombFault
	| BigListFault;

export type FaultKind = NonNullable<FaultRule['kind']>;

export interface FaultPlan {
	/** Deterministic rules, first match wins within each phase (README, Faults). */
	failNext?: FaultRule[];
	/** Probability (0..1) that a partner request gets 500. */
	rate500?: number;
	/** Probability (0..1) that a partner request gets 503. */
	rate503?: number;
	/** The next N successful, non-replayed POSTs are committed, then their socket is destroyed. */
	dropAfterCommit?: number;
	/** Delay before every partner request is handled (after its idempotency key is reserved). */
	delayMs?: number;
}

/** A request that reached the redirect target (it followed a redirect fault). */
export interface RedirectedRequest {
	seq: number;
	at: number;
	method: string;
	/** The full path as received (the sandbox redirects to the same path and query). */
	path: string;
	query: Record<string, string>;
	/** Lower-cased names, raw values. */
	headers: Record<string, string>;
	/** Whether an X-SVC-API-Key header arrived at the other origin. */
	apiKeyReceived: boolean;
	/** Parsed JSON, the raw string when it is not JSON, undefined when empty. */
	body: unknown;
}

export interface RedirectTarget {
	/** http://127.0.0.1:OTHER_PORT: another origin than the sandbox. */
	origin: string;
	/** Every request it received, in arrival order. */
	requests(): RedirectedRequest[];
	clear(): void;
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

/** Where the operator moves a truck: a position, a status, or both (admin.moveTruck). */
export interface TruckMove {
	latitude?: number;
	longitude?: number;
	status?: string;
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
	/** The truck reports a position (given, or a step north) and, if given, a new status. */
	moveTruck(assignmentId: string, move?: TruckMove): Record<string, unknown>;
	/** The trip moves on to `status`, or to its next status. */
	progressTrip(tripId: string, status?: string): Record<string, unknown>;
	settlePayment(reference: string): PaymentView;
	failPayment(reference: string): PaymentView;
	setCredit(org: OrgId, enabled: boolean): void;
	/** Replaces the whole fault plan; {} clears it. */
	setFaults(plan: FaultPlan): void;
	/** `headers`: rate-limit headers on every answer too, not only on a 429 (default off). */
	setRateLimit(perSecond: number | null, options?: { headers?: boolean }): void;
	/** Holds each partner request and each answer `ms` (a network's round trip); 0 for none. */
	setLatency(ms: number): void;
	/** Applies to quotes and quotations issued from now on. */
	setQuoteTtl(ms: number): void;
	/** Replay-refusals mode on or off (README, Idempotency); reset() restores the start option. */
	setReplayRefusals(enabled: boolean): void;
	/** Repeat-actions mode on or off (README, Idempotency); reset() restores the start option. */
	setRepeatActions(enabled: boolean): void;
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
	/** A second server on another port that redirect faults point at; it records what it gets. */
	redirectTarget: RedirectTarget;
	/** Partner-API calls only (never admin calls), in arrival order. */
	requests(filter?: RequestFilter): RequestLogEntry[];
	clearLog(): void;
	admin: SandboxAdmin;
	/** Closes the server and every open socket; resolves when fully closed. */
	close(): Promise<void>;
}
