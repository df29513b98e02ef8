// The sandbox as a rate-limited partner API some distance away, for the pacing benches: bookings
// made first (untimed, unlimited, on loopback), then a limit that may change on a schedule and a
// network's latency, and afterwards what the API accepted and refused, read from its log.
import { setTimeout as sleep } from 'node:timers/promises';

import type { OrgState } from '../test/e2e/lib/sandbox';
import { postAll } from './partnerApi';
import { routeBodies, type Route } from './routes';
import type { BenchStack } from './stack';
import type { WorkflowName } from './workflows';

/** The API's limit over a run: [ms after the run is posted, accepted requests per second]. */
export type Schedule = Array<[atMs: number, perSecond: number]>;

/** The least time `count` requests take under the schedule, each second's quota used in full. */
export function floorMs(schedule: Schedule, count: number): number {
	let left = count;
	for (const [i, [at, perSecond]] of schedule.entries()) {
		const until = schedule[i + 1]?.[0] ?? Infinity;
		const fits = ((until - at) / 1000) * perSecond;
		if (left <= fits) return at + (left / perSecond) * 1000;
		left -= fits;
	}
	return Infinity;
}

/** Untimed, no limit, no latency: `count` quotes, and bookings of them unless `book` is false. */
export async function prepare(
	stack: BenchStack,
	count: number,
	label: string,
	{ book = true } = {},
): Promise<{ quotes: Array<Route & { quoteId: string }>; bookingIds: string[] }> {
	const routes = routeBodies(count);
	const quoted = await postAll(stack.sandbox, '/partner-api/booking-quotes', routes, {
		keyPrefix: `${label}-quote`,
	});
	const quotes = routes.map((route, i) => ({ ...route, quoteId: String(quoted[i].body.quoteId) }));
	if (!book) return { quotes, bookingIds: [] };
	const booked = await postAll(stack.sandbox, '/partner-api/bookings', quotes, {
		keyPrefix: `${label}-booking`,
	});
	const bookingIds = booked.filter((a) => a.status === 201).map((a) => String(a.body.bookingId));
	if (bookingIds.length !== count)
		throw new Error(`setup: ${bookingIds.length} of ${count} bookings`);
	return { quotes, bookingIds };
}

/**
 * Sets the API's latency and the first limit of the schedule, then the later ones at their times
 * from now (limit changes keep the requests already in the window, as a live API would). Resolves
 * with when each change took effect (Date.now(), the sandbox's clock too).
 */
export async function limitFromNow(
	stack: BenchStack,
	schedule: Schedule,
	{ latencyMs = 0, headers = false } = {},
): Promise<{ started: number; changes: Promise<number[]> }> {
	await stack.admin.post('/latency', { ms: latencyMs });
	const [[, first], ...later] = schedule;
	await stack.admin.post('/rate-limit', { perSecond: first, headers });
	const started = Date.now();
	const changes = Promise.all(
		later.map(async ([at, perSecond]) => {
			await sleep(at);
			await stack.admin.post('/rate-limit', { perSecond, headers });
			return Date.now();
		}),
	);
	return { started, changes };
}

export interface LogEntry {
	at: number;
	method: string;
	path: string;
	status: number;
	replayed?: boolean;
	headers: Record<string, string>;
}

/** The API's log of one kind of request (those that reached it from `since` on), and the org's payments. */
export async function apiLog(stack: BenchStack, path: RegExp, since = 0) {
	const log = (
		await stack.admin.get<LogEntry[]>(`/log?method=POST&path=${encodeURIComponent(String(path))}`)
	).filter((entry) => entry.at >= since);
	const state = (await stack.admin.get<{ A: OrgState }>('/state')).A;
	return {
		log,
		requests: log.length,
		refused: log.filter((entry) => entry.status === 429).length,
		replayed: log.filter((entry) => entry.replayed).length,
		keys: new Set(log.map((entry) => entry.headers['idempotency-key'])).size,
		payments: state.payments.length,
		bookingsPaid: new Set(state.payments.map((p) => p.resourceId)).size,
		bookings: state.bookings.length,
	};
}

/**
 * How long after `restoredAt` the API was sent to at its full rate again: the first accepted
 * request from which a whole second holds at least 90 % of `perSecond` accepted ones. Undefined
 * when no such second came before the run ended.
 */
export function recoveryMs(log: LogEntry[], restoredAt: number, perSecond: number) {
	const accepted = acceptedTimes(log);
	const full = accepted.find(
		(at) =>
			at >= restoredAt &&
			accepted.filter((other) => other >= at && other < at + 1000).length >= 0.9 * perSecond,
	);
	return full === undefined ? undefined : full - restoredAt;
}

/** The most requests the API accepted in any rolling second. */
export function peakPerSecond(log: LogEntry[]): number {
	const accepted = acceptedTimes(log);
	let peak = 0;
	for (let i = 0, j = 0; i < accepted.length; i++) {
		while (accepted[i] - accepted[j] >= 1000) j++;
		peak = Math.max(peak, i - j + 1);
	}
	return peak;
}

/** When the API accepted each request, in order (the log is in the order of the answers). */
function acceptedTimes(log: LogEntry[]): number[] {
	return log
		.filter((entry) => entry.status < 300)
		.map((entry) => entry.at)
		.sort((a, b) => a - b);
}

/** What the API saw of one run of payments, and what was wrong with it. */
export interface PaymentsOutcome {
	floorMs: number;
	/** From the first POST to the last answer. */
	wallMs: number;
	/** Requests that reached the API during the run (every path `requests` matches). */
	requests: number;
	status429: number;
	/** The most requests the API accepted in any rolling second (at most the limit). */
	peak: number;
	problems: string[];
}

/**
 * `executions` executions of `payments` Booking › Pay items each (bookings made first, untimed),
 * posted at the same moment to `workflow`, against the API limited to `perSecond`.
 */
export async function paymentsAtOnce(
	stack: BenchStack,
	{
		executions,
		payments,
		perSecond,
		label,
		workflow = 'bookingPay',
		latencyMs = 0,
		headers = false,
	}: {
		executions: number;
		payments: number;
		perSecond: number;
		label: string;
		workflow?: WorkflowName;
		latencyMs?: number;
		headers?: boolean;
	},
): Promise<PaymentsOutcome> {
	await stack.admin.post('/reset');
	const lists: Array<Array<{ bookingId: string }>> = [];
	for (let i = 0; i < executions; i++) {
		const { bookingIds } = await prepare(stack, payments, `${label}-${i}`);
		lists.push(bookingIds.map((bookingId) => ({ bookingId })));
	}
	const { started } = await limitFromNow(stack, [[0, perSecond]], { latencyMs, headers });
	const results = await stack.runAtOnce(workflow, lists);
	await stack.admin.post('/rate-limit', { perSecond: null });
	const api = await apiLog(stack, PAYMENT_REQUESTS, started);
	const total = executions * payments;
	const paid = results
		.flatMap((r) => r.output)
		.filter((item) => typeof item.paymentReference === 'string');
	return {
		floorMs: floorMs([[0, perSecond]], total) + 2 * latencyMs,
		wallMs: results[0].wallMs,
		requests: api.requests,
		status429: api.refused,
		peak: peakPerSecond(api.log),
		problems: [
			paid.length !== total &&
				`${paid.length} of ${total} paid (${results.find((r) => r.error)?.error ?? ''})`,
			api.payments !== total && `${api.payments} payments recorded`,
			api.bookingsPaid !== api.payments && 'a booking was paid twice',
		].filter((problem): problem is string => !!problem),
	};
}

/** Booking › Pay's requests in the API's log. */
export const PAYMENT_REQUESTS = /^\/partner-api\/bookings\/[^/]+\/payment$/;
