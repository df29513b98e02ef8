// Two queue-mode workers sending on one API key at once, in real n8n: each worker is its own
// process with its own pacer, so neither sees the other's requests. Two executions of 300
// payments, posted at the same moment, one per worker, against the sandbox limited to 50 accepted
// requests per rolling second, 20 ms away: as the API answers by default (only a 429 states the
// limit), with the API's rate headers on every answer, and with Max Requests per Second 25 on each.
// Needs Postgres and Redis (scripts/debian-deps.sh queue). Run alone:
// npx ts-node --transpile-only --prefer-ts-exts bench/queue.ts
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { queueEnv, startWorker } from '../test/e2e/lib/queueMode';
import { startPostgres, startRedis } from '../test/e2e/lib/services';
import { paymentsAtOnce, type PaymentsOutcome } from './limitedApi';
import { BenchFailure, runWhenMain, seconds } from './report';
import { type BenchStack, startBenchStack } from './stack';
import type { WorkflowName } from './workflows';

const LIMIT = 50;
const PAYMENTS = 300;
const LATENCY_MS = 20;
/** Rounds of every setup; the first is the workers' first contact with the key. */
const RUNS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Setup {
	name: string;
	workflow: WorkflowName;
	/** The API's rate headers on every answer, not only X-RateLimit-Limit on a 429. */
	headers: boolean;
}

const SETUPS: Setup[] = [
	{ name: 'the API states its limit on a 429 only', workflow: 'bookingPay', headers: false },
	{
		name: 'the API sends X-RateLimit-Limit/-Remaining/-Reset on every answer',
		workflow: 'bookingPay',
		headers: true,
	},
	{
		name: 'Max Requests per Second 25 on each (the limit ÷ 2 workers)',
		workflow: 'bookingPayHalfRate',
		headers: false,
	},
];

interface Outcome extends PaymentsOutcome {
	setup: Setup;
	run: number;
}

async function twoAtOnce(stack: BenchStack, setup: Setup, run: number): Promise<Outcome> {
	const outcome = await paymentsAtOnce(stack, {
		executions: 2,
		payments: PAYMENTS,
		perSecond: LIMIT,
		latencyMs: LATENCY_MS,
		headers: setup.headers,
		workflow: setup.workflow,
		label: `queue-${run}`,
	});
	return { ...outcome, setup, run };
}

export async function run(): Promise<string> {
	const workDir = mkdtempSync(join(tmpdir(), 'partner-logistics-bench-queue-'));
	const logDir = join(workDir, 'logs');
	mkdirSync(logDir, { recursive: true });
	const [postgres, redis] = await Promise.all([
		startPostgres(workDir, logDir, ['n8n']),
		startRedis(workDir, logDir),
	]);
	let stack: Awaited<ReturnType<typeof startBenchStack>> | undefined;
	try {
		stack = await startBenchStack({
			workDir,
			instanceEnv: {
				...queueEnv({
					postgresPort: postgres.port,
					postgresUser: postgres.user,
					database: 'n8n',
					redisPort: redis.port,
				}),
				// The main takes the webhooks here; every execution still runs on a worker.
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'false',
			},
			// One execution at a time each: two posted at once go to the two workers.
			others: async (instance) =>
				await Promise.all(
					['worker-1', 'worker-2'].map(
						async (name) =>
							await startWorker(instance, name, { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' }),
					),
				),
		});
		const outcomes: Outcome[] = [];
		for (const setup of SETUPS) {
			await stack.restartN8n();
			for (let i = 1; i <= RUNS; i++) outcomes.push(await twoAtOnce(stack, setup, i));
		}
		await stack.admin.post('/latency', { ms: 0 });
		const problems = outcomes.flatMap((o) =>
			o.problems.map((p) => `${o.setup.name}, run ${o.run}: ${p}`),
		);
		const section = report(outcomes, problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	} finally {
		await stack?.stop();
		await Promise.all([postgres.stop(), redis.stop()]);
		rmSync(workDir, { recursive: true, force: true });
	}
}

function report(outcomes: Outcome[], problems: string[]): string {
	const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
	const row = (o: Outcome) =>
		`| ${o.setup.name} | ${o.run} | ${seconds(o.floorMs)} | ${seconds(o.wallMs)} | ` +
		`${(o.wallMs / o.floorMs).toFixed(2)}× | ${o.requests} | ${o.status429} ` +
		`(${pct(o.status429 / o.requests)}) | ${o.peak} |`;
	return [
		'### Queue mode: two workers, one API key',
		'',
		`n8n 2.41.1 in queue mode (Postgres, Redis), the main taking the webhooks, two workers each ` +
			`running one execution at a time. The sandbox limited to ${LIMIT} accepted requests per key ` +
			`per rolling second, ${LATENCY_MS} ms away. Per run: ${PAYMENTS} bookings per execution ` +
			`made first (untimed), then two POSTs at the same moment to Webhook → Split Out → Booking › ` +
			`Pay (Concurrency 50): one execution per worker, each worker with its own pacer. Time: the ` +
			`first POST to the last answer. Floor: ${2 * PAYMENTS} requests at the limit plus a round ` +
			`trip. n8n is restarted before each setup: run 1 is the workers' first contact with the key. ` +
			`No bar: what happens, to say in the README.`,
		'',
		'| setup | run | floor | time | × floor | payment requests | 429s | peak/s |',
		'|---|---:|---:|---:|---:|---:|---:|---:|',
		...outcomes.map(row),
		'',
		`- Checks (every run: ${2 * PAYMENTS} paid, none twice): ` +
			`${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
