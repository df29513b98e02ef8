// 300 Booking › Pay items in real n8n against the sandbox limited to 50 requests/s: every booking
// paid exactly once, in about the 6 s the limit allows, with few requests refused.
// Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/payments.ts
import type { OrgState } from '../test/e2e/lib/sandbox';
import { postAll } from './partnerApi';
import { BenchFailure, median, runWhenMain, seconds } from './report';
import { routeBodies } from './routes';
import { type BenchStack, withBenchStack } from './stack';

const PAYMENTS = 300;
const LIMIT = 50;
const FLOOR_MS = (PAYMENTS / LIMIT) * 1000;
/** BENCH_ROUNDS=1 makes a quick check of the whole path. */
const RUNS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGETS = { floorRatio: 1.15, share429: 0.1 };
const PAYMENT_PATH = String(/^\/partner-api\/bookings\/[^/]+\/payment$/);

interface Outcome {
	nodeMs: number;
	wallMs: number;
	/** Output items without a payment reference (error items), plus missing items. */
	failed: number;
	firstError?: string;
	payments: number;
	/** Bookings with at least one payment; equals `payments` when none was paid twice. */
	bookingsPaid: number;
	requests: number;
	status429: number;
	replayed: number;
	keys: number;
}

interface LogEntry {
	status: number;
	replayed?: boolean;
	headers: Record<string, string>;
}

/** Untimed, no rate limit: PAYMENTS quotes and their bookings straight through the API. */
async function bookings(stack: BenchStack, run: number): Promise<string[]> {
	const routes = routeBodies(PAYMENTS);
	const quotes = await postAll(stack.sandbox, '/partner-api/booking-quotes', routes, {
		keyPrefix: `pay-setup-quote-${run}`,
	});
	const booked = await postAll(
		stack.sandbox,
		'/partner-api/bookings',
		routes.map((route, i) => ({ ...route, quoteId: quotes[i].body.quoteId })),
		{ keyPrefix: `pay-setup-booking-${run}` },
	);
	const ids = booked.filter((a) => a.status === 201).map((a) => String(a.body.bookingId));
	if (ids.length !== PAYMENTS) throw new Error(`setup: ${ids.length} of ${PAYMENTS} bookings`);
	return ids;
}

async function payAll(stack: BenchStack, run: number): Promise<Outcome> {
	await stack.admin.post('/reset');
	const ids = await bookings(stack, run);
	await stack.admin.post('/rate-limit', { perSecond: LIMIT });
	const result = await stack.run(
		'bookingPay',
		ids.map((bookingId) => ({ bookingId })),
	);
	await stack.admin.post('/rate-limit', { perSecond: null });
	const paid = result.output.filter((item) => typeof item.paymentReference === 'string');
	const errorItem = result.output.find((item) => item.error !== undefined);
	const state = (await stack.admin.get<{ A: OrgState }>('/state')).A;
	const log = await stack.admin.get<LogEntry[]>(
		`/log?method=POST&path=${encodeURIComponent(PAYMENT_PATH)}`,
	);
	return {
		nodeMs: result.nodeMs,
		wallMs: result.wallMs,
		failed: PAYMENTS - paid.length,
		firstError: result.error ?? (errorItem ? JSON.stringify(errorItem.error) : undefined),
		payments: state.payments.length,
		bookingsPaid: new Set(state.payments.map((p) => p.resourceId)).size,
		requests: log.length,
		status429: log.filter((entry) => entry.status === 429).length,
		replayed: log.filter((entry) => entry.replayed).length,
		keys: new Set(log.map((entry) => entry.headers['idempotency-key'])).size,
	};
}

export async function run(): Promise<string> {
	return await withBenchStack(async (stack) => {
		const outcomes: Outcome[] = [];
		for (let i = 0; i < RUNS; i++) outcomes.push(await payAll(stack, i));
		const problems = outcomes.flatMap((o, i) =>
			[
				o.failed && `run ${i + 1}: ${o.failed} items without a payment (${o.firstError})`,
				o.payments !== PAYMENTS && `run ${i + 1}: ${o.payments} payments recorded`,
				o.bookingsPaid !== o.payments && `run ${i + 1}: a booking was paid twice`,
				o.keys !== PAYMENTS && `run ${i + 1}: ${o.keys} distinct Idempotency-Keys`,
			].filter((problem): problem is string => !!problem),
		);
		const section = report(outcomes, problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	});
}

function report(outcomes: Outcome[], problems: string[]): string {
	const share = (o: Outcome) => (o.requests ? o.status429 / o.requests : NaN);
	const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
	const row = (o: Outcome, i: number) =>
		`| ${i + 1} | ${seconds(o.nodeMs)} | ${(o.nodeMs / FLOOR_MS).toFixed(2)}× | ` +
		`${seconds(o.wallMs)} | ${o.requests} | ${o.status429} (${pct(share(o))}) | ${o.replayed} | ` +
		`${o.payments} | ${o.bookingsPaid} | ${o.keys} | ${o.failed} |`;
	const floorRatio = median(outcomes.map((o) => o.nodeMs / FLOOR_MS));
	const share429 = median(outcomes.map(share));
	const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
	return [
		`### Booking › Pay, ${PAYMENTS} items at ${LIMIT} requests/s, in real n8n`,
		'',
		`Per run: ${PAYMENTS} quotes and bookings made first through the API with no limit ` +
			`(untimed), then the sandbox limited to ${LIMIT} accepted requests per key per rolling ` +
			`second and ${PAYMENTS} booking ids posted to a workflow Webhook → Split Out → Booking › ` +
			`Pay (saved card \`pm_card_a_api\`, On Error: Continue, so failed items are counted one by ` +
			`one). Floor: ${PAYMENTS} / ${LIMIT} = ${seconds(FLOOR_MS)}. Node time is n8n's ` +
			`\`executionTime\` of Booking › Pay; wall is POST to the webhook → its answer.`,
		'',
		'| run | node time | × 6 s floor | wall | payment requests | 429s | replays | payments recorded | bookings paid | distinct Idempotency-Keys | failed items |',
		'|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...outcomes.map(row),
		'',
		`- Time: median ${floorRatio.toFixed(2)}× the floor; target ≤ ${TARGETS.floorRatio}×: ` +
			`${verdict(floorRatio <= TARGETS.floorRatio)}.`,
		`- Refused with 429: median ${pct(share429)} of payment requests; target ≤ ` +
			`${pct(TARGETS.share429)}: ${verdict(share429 <= TARGETS.share429)}.`,
		`- Checks (every run: ${PAYMENTS} payments recorded, none twice, ${PAYMENTS} distinct ` +
			`Idempotency-Keys, no failed item): ` +
			`${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
