// 300 Booking › Pay items in real n8n against the sandbox limited to 10, 50 and 200 requests/s and
// to a limit that halves mid-batch: every booking paid exactly once, near the least time the limit
// allows, with few requests refused.
// Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/payments.ts
import { setTimeout as sleep } from 'node:timers/promises';

import type { OrgState } from '../test/e2e/lib/sandbox';
import { postAll } from './partnerApi';
import { BenchFailure, median, runWhenMain, seconds } from './report';
import { routeBodies } from './routes';
import { type BenchStack, withBenchStack } from './stack';

const PAYMENTS = 300;
/** BENCH_ROUNDS=1 makes a quick check of the whole path. */
const RUNS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGETS = { floorRatio: 1.05, share429: 0.02 };
const PAYMENT_PATH = String(/^\/partner-api\/bookings\/[^/]+\/payment$/);

/** The API's limit over a batch: [ms after the batch is posted, accepted requests per second]. */
type Schedule = Array<[atMs: number, perSecond: number]>;

interface Scenario {
	name: string;
	schedule: Schedule;
}

const SCENARIOS: Scenario[] = [
	{ name: '10/s', schedule: [[0, 10]] },
	{ name: '50/s', schedule: [[0, 50]] },
	{ name: '200/s', schedule: [[0, 200]] },
	{
		name: '50/s, halved to 25/s from 2 s to 4 s',
		schedule: [
			[0, 50],
			[2000, 25],
			[4000, 50],
		],
	},
];

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

interface Outcome {
	scenario: Scenario;
	floorMs: number;
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

async function payAll(stack: BenchStack, scenario: Scenario, run: number): Promise<Outcome> {
	await stack.admin.post('/reset');
	const ids = await bookings(stack, run);
	const [[, first], ...changes] = scenario.schedule;
	await stack.admin.post('/rate-limit', { perSecond: first });
	const changed = Promise.all(
		changes.map(async ([at, perSecond]) => {
			await sleep(at);
			await stack.admin.post('/rate-limit', { perSecond });
		}),
	);
	const result = await stack.run(
		'bookingPay',
		ids.map((bookingId) => ({ bookingId })),
	);
	await changed;
	await stack.admin.post('/rate-limit', { perSecond: null });
	const paid = result.output.filter((item) => typeof item.paymentReference === 'string');
	const errorItem = result.output.find((item) => item.error !== undefined);
	const state = (await stack.admin.get<{ A: OrgState }>('/state')).A;
	const log = await stack.admin.get<LogEntry[]>(
		`/log?method=POST&path=${encodeURIComponent(PAYMENT_PATH)}`,
	);
	return {
		scenario,
		floorMs: floorMs(scenario.schedule, PAYMENTS),
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
		// Rounds outermost, so a slow spell of the machine touches every scenario alike.
		for (let i = 0; i < RUNS; i++) {
			for (const scenario of SCENARIOS) outcomes.push(await payAll(stack, scenario, i));
		}
		const problems = outcomes.flatMap((o) => {
			const at = `${o.scenario.name}`;
			return [
				o.failed && `${at}: ${o.failed} items without a payment (${o.firstError})`,
				o.payments !== PAYMENTS && `${at}: ${o.payments} payments recorded`,
				o.bookingsPaid !== o.payments && `${at}: a booking was paid twice`,
				o.keys !== PAYMENTS && `${at}: ${o.keys} distinct Idempotency-Keys`,
			].filter((problem): problem is string => !!problem);
		});
		const section = report(outcomes, problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	});
}

function report(outcomes: Outcome[], problems: string[]): string {
	const share = (o: Outcome) => (o.requests ? o.status429 / o.requests : NaN);
	const ratio = (o: Outcome) => o.nodeMs / o.floorMs;
	const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
	const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
	const summary = (scenario: Scenario) => {
		const runs = outcomes.filter((o) => o.scenario === scenario);
		const floorRatio = median(runs.map(ratio));
		const share429 = median(runs.map(share));
		return (
			`| ${scenario.name} | ${seconds(floorMs(scenario.schedule, PAYMENTS))} | ` +
			`${floorRatio.toFixed(2)}× (${verdict(floorRatio <= TARGETS.floorRatio)}) | ` +
			`${pct(share429)} (${verdict(share429 <= TARGETS.share429)}) |`
		);
	};
	const row = (o: Outcome) =>
		`| ${o.scenario.name} | ${seconds(o.nodeMs)} | ${ratio(o).toFixed(2)}× | ` +
		`${seconds(o.wallMs)} | ${o.requests} | ${o.status429} (${pct(share(o))}) | ${o.replayed} | ` +
		`${o.payments} | ${o.bookingsPaid} | ${o.keys} | ${o.failed} |`;
	return [
		`### Booking › Pay, ${PAYMENTS} items against a rate-limited API, in real n8n`,
		'',
		`Per run: ${PAYMENTS} quotes and bookings made first through the API with no limit ` +
			`(untimed), then the sandbox limited to the scenario's accepted requests per key per ` +
			`rolling second (a change keeps the requests already in the window) and ${PAYMENTS} ` +
			`booking ids posted to a workflow Webhook → Split Out → Booking › Pay (saved card ` +
			`\`pm_card_a_api\`, On Error: Continue, so failed items are counted one by one). Floor: the ` +
			`least time ${PAYMENTS} requests take at the limit, each second's quota used in full ` +
			`(limit changes are timed from the POST to the webhook). Node time is n8n's ` +
			`\`executionTime\` of Booking › Pay; wall is POST to the webhook → its answer. ` +
			`${RUNS} rounds, each running every scenario once. Targets: ≤ ${TARGETS.floorRatio}× ` +
			`the floor, ≤ ${pct(TARGETS.share429)} of requests refused.`,
		'',
		'| limit | floor | median × floor | median refused (429) |',
		'|---|---:|---:|---:|',
		...SCENARIOS.map(summary),
		'',
		'| limit | node time | × floor | wall | payment requests | 429s | replays | payments recorded | bookings paid | distinct Idempotency-Keys | failed items |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...outcomes.map(row),
		'',
		`- Checks (every run: ${PAYMENTS} payments recorded, none twice, ${PAYMENTS} distinct ` +
			`Idempotency-Keys, no failed item): ` +
			`${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
