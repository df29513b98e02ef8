// Several runs on one API key at once, in real n8n, against the sandbox limited to 50 accepted
// requests per rolling second and some distance away: two and three executions of 300 payments
// started together, and a batch of 1,000 payments while single bookings arrive by webhook every
// 100 ms. Each scenario's first run follows a restart of n8n (nothing learned of the key).
// Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/sharedKey.ts
import { setTimeout as sleep } from 'node:timers/promises';

import { summarize } from './healthz';
import {
	apiLog,
	floorMs,
	limitFromNow,
	paymentsAtOnce,
	type PaymentsOutcome,
	peakPerSecond,
	prepare,
} from './limitedApi';
import { BenchFailure, median, ms, runWhenMain, seconds } from './report';
import { type BenchStack, withBenchStack } from './stack';

const LIMIT = 50;
const PAYMENTS = 300;
const BATCH = 1000;
const SINGLE_EVERY_MS = 100;
/** Runs per scenario, the first after a restart of n8n. */
const RUNS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The API's distance, one way, in ms. */
const LATENCIES = (process.env.BENCH_SHARED_LATENCIES ?? '20,100').split(',').map(Number);
const TARGETS = { floorRatio: 1.1, share429: 0.02 };
const REQUESTS = /^\/partner-api\/bookings(\/[^/]+\/payment)?$/;

interface Outcome extends PaymentsOutcome {
	scenario: string;
	latencyMs: number;
	run: number;
	/** Single bookings: how many, and each one's webhook round trip (POST → the booking). */
	singles?: number[];
	/** A single booking's round trip with nothing else on the key. */
	singleAloneMs?: number;
}

/** Several executions of 300 payments each, posted at the same moment. */
async function atOnce(
	stack: BenchStack,
	executions: number,
	latencyMs: number,
	run: number,
): Promise<Outcome> {
	const outcome = await paymentsAtOnce(stack, {
		executions,
		payments: PAYMENTS,
		perSecond: LIMIT,
		latencyMs,
		label: `shared-${executions}-${run}`,
	});
	return {
		...outcome,
		scenario: `${executions} executions of ${PAYMENTS} payments at once`,
		latencyMs,
		run,
	};
}

/** A batch of 1,000 payments, and one booking by webhook every 100 ms while it runs. */
async function batchAndSingles(
	stack: BenchStack,
	latencyMs: number,
	run: number,
): Promise<Outcome> {
	await stack.admin.post('/reset');
	const { bookingIds } = await prepare(stack, BATCH, `batch-${run}`);
	const { quotes } = await prepare(stack, 500, `singles-${run}`, { book: false });
	const { started } = await limitFromNow(stack, [[0, LIMIT]], { latencyMs });
	const single = async () => {
		const quote = quotes.shift();
		if (!quote) throw new Error('out of quotes for single bookings');
		const answer = await stack.post('bookingSingle', { quotes: [quote] });
		const booked = answer.status === 200 && /"bookingId"/.test(answer.body);
		return { ...answer, booked };
	};
	const alone = [];
	for (let i = 0; i < 5; i++) alone.push((await single()).wallMs);
	await sleep(1000); // the singles' requests leave the window

	let batchDone = false;
	const batch = stack
		.run(
			'bookingPay',
			bookingIds.map((bookingId) => ({ bookingId })),
		)
		.finally(() => (batchDone = true));
	const singles: Array<Promise<Awaited<ReturnType<typeof single>>>> = [];
	await sleep(SINGLE_EVERY_MS);
	while (!batchDone) {
		singles.push(single());
		await sleep(SINGLE_EVERY_MS);
	}
	const result = await batch;
	const answers = await Promise.all(singles);
	await stack.admin.post('/rate-limit', { perSecond: null });
	const api = await apiLog(stack, REQUESTS, started);
	const paid = result.output.filter((item) => typeof item.paymentReference === 'string');
	const problems = [
		paid.length !== BATCH && `${paid.length} of ${BATCH} payments (${result.error ?? ''})`,
		api.payments !== BATCH && `${api.payments} payments recorded`,
		api.bookingsPaid !== api.payments && 'a booking was paid twice',
		answers.some((a) => !a.booked) &&
			`${answers.filter((a) => !a.booked).length} singles not booked`,
	].filter((problem): problem is string => !!problem);
	return {
		scenario: `${BATCH.toLocaleString('en')} payments, a booking by webhook every ${SINGLE_EVERY_MS} ms`,
		latencyMs,
		run,
		// Every accepted request counts against the one limit: the batch's and the singles'.
		floorMs: floorMs([[0, LIMIT]], BATCH + answers.length) + 2 * latencyMs,
		wallMs: result.wallMs,
		requests: api.requests,
		status429: api.refused,
		peak: peakPerSecond(api.log),
		problems,
		singles: answers.map((a) => a.wallMs),
		singleAloneMs: median(alone),
	};
}

export async function run(): Promise<string> {
	return await withBenchStack(async (stack) => {
		const outcomes: Outcome[] = [];
		// BENCH_SHARED_SCENARIOS=two|three|singles runs some of them.
		const only = process.env.BENCH_SHARED_SCENARIOS?.split('|');
		const scenarios = Object.entries({
			two: (latency: number, i: number) => atOnce(stack, 2, latency, i),
			three: (latency: number, i: number) => atOnce(stack, 3, latency, i),
			singles: (latency: number, i: number) => batchAndSingles(stack, latency, i),
		})
			.filter(([name]) => !only || only.includes(name))
			.map(([, scenario]) => scenario);
		for (const latencyMs of LATENCIES) {
			for (const scenario of scenarios) {
				await stack.restartN8n();
				for (let i = 1; i <= RUNS; i++) outcomes.push(await scenario(latencyMs, i));
			}
		}
		await stack.admin.post('/latency', { ms: 0 });
		const problems = outcomes.flatMap((o) =>
			o.problems.map((p) => `${o.scenario} at ${o.latencyMs} ms, run ${o.run}: ${p}`),
		);
		const section = report(outcomes, problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	});
}

function report(outcomes: Outcome[], problems: string[]): string {
	const share = (o: Outcome) => o.status429 / o.requests;
	const ratio = (o: Outcome) => o.wallMs / o.floorMs;
	const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
	const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
	const row = (o: Outcome) =>
		`| ${o.latencyMs} ms | ${o.scenario} | ${o.run} | ${seconds(o.floorMs)} | ${seconds(o.wallMs)} | ` +
		`${ratio(o).toFixed(2)}× (${verdict(ratio(o) <= TARGETS.floorRatio)}) | ${o.requests} | ` +
		`${o.status429} (${pct(share(o))}, ${verdict(share(o) <= TARGETS.share429)}) | ${o.peak} |`;
	const singlesRow = (o: Outcome) => {
		const { samples, p50, p95, max } = summarize(o.singles!);
		return (
			`| ${o.latencyMs} ms | ${o.run} | ${samples} | ${ms(o.singleAloneMs!)} | ` +
			`${ms(p50)} | ${ms(p95)} | ${ms(max)} |`
		);
	};
	return [
		`### One API key, several runs at once, in real n8n`,
		'',
		`The sandbox limited to ${LIMIT} accepted requests per key per rolling second, holding each ` +
			`request and each answer the latency shown; one Partner Logistics credential. For each ` +
			`latency and scenario n8n is restarted, then the scenario runs ${RUNS} times: run 1 is the ` +
			`first after n8n started (nothing learned of the key). **At once**: ${PAYMENTS} bookings ` +
			`per execution made first (untimed), then one POST per execution to Webhook → Split Out → ` +
			`Booking › Pay (Concurrency 50), all at the same moment; time is the first POST to the last ` +
			`answer. **Batch and singles**: ${BATCH.toLocaleString('en')} payments through the same ` +
			`workflow while, every ${SINGLE_EVERY_MS} ms until the batch ends, one quote is posted to ` +
			`Webhook → Split Out → Booking › Create (answering with the booking); time is the batch's ` +
			`POST to its answer. Floor: every request accepted at the limit (the singles' too), plus ` +
			`one round trip. Refused: 429s among all payment and booking requests. Peak: the most ` +
			`requests the API accepted in a rolling second. Bars: ≤ ${TARGETS.floorRatio}× the floor, ` +
			`≤ ${pct(TARGETS.share429)} refused, nothing paid twice, single bookings not starved.`,
		'',
		'| latency | scenario | run | floor | time | × floor | requests | 429s | peak/s |',
		'|---|---|---:|---:|---:|---:|---:|---:|---:|',
		...outcomes.map(row),
		'',
		'Single bookings during the batch, each POST to its answer (with the booking):',
		'',
		'| latency | run | bookings | alone (median of 5, before the batch) | p50 | p95 | max |',
		'|---|---:|---:|---:|---:|---:|---:|',
		...outcomes.filter((o) => o.singles).map(singlesRow),
		'',
		`- Checks (every run: every item paid once, each booking paid at most once, every single ` +
			`booked): ${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
