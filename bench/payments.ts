// 300 Booking › Pay items in real n8n against the sandbox limited to 10, 50 and 200 requests/s and
// to a limit that halves mid-batch and comes back, on loopback and 20 and 100 ms away: every
// booking paid exactly once, near the least time the limit allows, with few requests refused. Each
// scenario's first run follows a restart of n8n (nothing learned of the key); the later ones start
// from what the first taught.
// Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/payments.ts
import {
	apiLog,
	floorMs,
	limitFromNow,
	PAYMENT_REQUESTS,
	prepare,
	recoveryMs,
	type Schedule,
} from './limitedApi';
import { BenchFailure, median, runWhenMain, seconds } from './report';
import { type BenchStack, withBenchStack } from './stack';

const PAYMENTS = 300;
/** Runs per scenario, the first after a restart of n8n. BENCH_ROUNDS=1 makes a quick check. */
const RUNS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The API's distance, one way, in ms: BENCH_LATENCIES=0,20,100 by default. */
const LATENCIES = (process.env.BENCH_LATENCIES ?? '0,20,100').split(',').map(Number);
/** On loopback: as good as before a key's limit was shared (first runs and later ones). */
const LOOPBACK = { floorRatio: 1.05, share429: 0.02 };
/** A real network's round trip. */
const AWAY = { floorRatio: 1.1, share429: 0.02 };
/** The halved limit's restore: back at the full rate within this. */
const RECOVERY_MS = 2000;

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

/** BENCH_SCENARIOS=50/s runs the scenarios whose name starts so (here 50/s and its halving). */
const chosen = ({ name }: Scenario) =>
	(process.env.BENCH_SCENARIOS ?? '').split('|').some((prefix) => name.startsWith(prefix));

interface Outcome {
	scenario: Scenario;
	latencyMs: number;
	/** 1 is the first run after n8n started. */
	run: number;
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
	/** For a limit that comes back: how long after, the API was sent to at its full rate. */
	recoveryMs?: number;
}

async function payAll(
	stack: BenchStack,
	scenario: Scenario,
	latencyMs: number,
	run: number,
): Promise<Outcome> {
	await stack.admin.post('/reset');
	const { bookingIds } = await prepare(stack, PAYMENTS, `pay-${latencyMs}-${run}`);
	const { changes } = await limitFromNow(stack, scenario.schedule, { latencyMs });
	const result = await stack.run(
		'bookingPay',
		bookingIds.map((bookingId) => ({ bookingId })),
	);
	const changedAt = await changes;
	await stack.admin.post('/rate-limit', { perSecond: null });
	const paid = result.output.filter((item) => typeof item.paymentReference === 'string');
	const errorItem = result.output.find((item) => item.error !== undefined);
	const api = await apiLog(stack, PAYMENT_REQUESTS);
	const restored = scenario.schedule.at(-1)!;
	return {
		scenario,
		latencyMs,
		run,
		// The last answer comes back a round trip after the last request left.
		floorMs: floorMs(scenario.schedule, PAYMENTS) + 2 * latencyMs,
		nodeMs: result.nodeMs,
		wallMs: result.wallMs,
		failed: PAYMENTS - paid.length,
		firstError: result.error ?? (errorItem ? JSON.stringify(errorItem.error) : undefined),
		payments: api.payments,
		bookingsPaid: api.bookingsPaid,
		requests: api.requests,
		status429: api.refused,
		replayed: api.replayed,
		keys: api.keys,
		recoveryMs: changedAt.length ? recoveryMs(api.log, changedAt.at(-1)!, restored[1]) : undefined,
	};
}

export async function run(): Promise<string> {
	return await withBenchStack(async (stack) => {
		const outcomes: Outcome[] = [];
		for (const latencyMs of LATENCIES) {
			for (const scenario of SCENARIOS.filter(chosen)) {
				await stack.restartN8n();
				for (let i = 1; i <= RUNS; i++) outcomes.push(await payAll(stack, scenario, latencyMs, i));
			}
		}
		await stack.admin.post('/latency', { ms: 0 });
		const problems = outcomes.flatMap((o) => {
			const at = `${o.scenario.name} at ${o.latencyMs} ms, run ${o.run}`;
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

const share = (o: Outcome) => (o.requests ? o.status429 / o.requests : NaN);
const ratio = (o: Outcome) => o.nodeMs / o.floorMs;
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function report(outcomes: Outcome[], problems: string[]): string {
	const summary = (latencyMs: number, scenario: Scenario) => {
		const runs = outcomes.filter((o) => o.scenario === scenario && o.latencyMs === latencyMs);
		const bar = latencyMs === 0 ? LOOPBACK : AWAY;
		const first = runs.find((o) => o.run === 1);
		const later = runs.filter((o) => o.run > 1);
		const cells = (group: Outcome[]) => {
			if (!group.length) return '– | –';
			const r = median(group.map(ratio));
			const s = median(group.map(share));
			return (
				`${r.toFixed(2)}× (${verdict(r <= bar.floorRatio)}) | ` +
				`${pct(s)} (${verdict(s <= bar.share429)})`
			);
		};
		const recoveries = runs.map((o) => o.recoveryMs);
		const recovery = recoveries.every((ms) => ms === undefined)
			? ''
			: `${recoveries.map((ms) => (ms === undefined ? 'none' : seconds(ms))).join(', ')} ` +
				`(${verdict(recoveries.every((ms) => ms !== undefined && ms <= RECOVERY_MS))})`;
		return (
			`| ${latencyMs} ms | ${scenario.name} | ${seconds(runs[0]?.floorMs ?? NaN)} | ` +
			`${first ? cells([first]) : '– | –'} | ${cells(later)} | ${recovery} |`
		);
	};
	const row = (o: Outcome) =>
		`| ${o.latencyMs} ms | ${o.scenario.name} | ${o.run} | ${seconds(o.nodeMs)} | ` +
		`${ratio(o).toFixed(2)}× | ${seconds(o.wallMs)} | ${o.requests} | ` +
		`${o.status429} (${pct(share(o))}) | ${o.replayed} | ${o.payments} | ${o.bookingsPaid} | ` +
		`${o.keys} | ${o.failed} | ${o.recoveryMs === undefined ? '' : seconds(o.recoveryMs)} |`;
	return [
		`### Booking › Pay, ${PAYMENTS} items against a rate-limited API, in real n8n`,
		'',
		`Per run: ${PAYMENTS} quotes and bookings made first through the API (no limit, on ` +
			`loopback, untimed), then the sandbox limited to the scenario's accepted requests per key ` +
			`per rolling second (a change keeps the requests already in the window), holding each ` +
			`request and each answer the scenario's latency, and ${PAYMENTS} booking ids posted to a ` +
			`workflow Webhook → Split Out → Booking › Pay (saved card, Concurrency 50, On Error: ` +
			`Continue, so failed items are counted one by one). For each latency and scenario n8n is ` +
			`restarted, then it runs ${RUNS} times: run 1 is the first after n8n started (nothing ` +
			`learned of the key), the later runs start from what it learned. Floor: the least time ` +
			`${PAYMENTS} requests take at the limit, each second's quota used in full (changes timed ` +
			`from the POST to the webhook), plus one round trip. Node time is n8n's \`executionTime\` ` +
			`of Booking › Pay; wall is POST to the webhook → its answer. Bars: on loopback ≤ ` +
			`${LOOPBACK.floorRatio}× the floor and ≤ ${pct(LOOPBACK.share429)} refused (first runs, ` +
			`and later runs no worse); 20 and 100 ms away ≤ ${AWAY.floorRatio}× and ≤ ` +
			`${pct(AWAY.share429)}; after the halved limit is restored, back at the full rate (90 % ` +
			`of it over a whole second) within ${RECOVERY_MS / 1000} s.`,
		'',
		'| latency | limit | floor | first run × floor | first run refused | later runs × floor (median) | later runs refused (median) | back at full rate after the restore |',
		'|---|---|---:|---:|---:|---:|---:|---|',
		...LATENCIES.flatMap((latencyMs) => SCENARIOS.filter(chosen).map((s) => summary(latencyMs, s))),
		'',
		'| latency | limit | run | node time | × floor | wall | payment requests | 429s | replays | payments recorded | bookings paid | distinct Idempotency-Keys | failed items | full rate again after |',
		'|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...outcomes.map(row),
		'',
		`- Checks (every run: ${PAYMENTS} payments recorded, none twice, ${PAYMENTS} distinct ` +
			`Idempotency-Keys, no failed item): ` +
			`${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
