// 1,000 Quote › Create items in real n8n: our node with the route from expressions, our node reading
// the route straight off the items (Route Source: input fields), n8n's HTTP Request node sending the
// same POSTs, a plain fetch loop as the floor, and the transport floor: a bench-only node that POSTs
// each item through n8n's request helper and does nothing else, the least any node sending through
// n8n can cost. Side by side, in alternating rounds, each round after a restart of n8n, whose first
// run (ours, from expressions, nothing learned of the key yet) is timed on its own, as is the
// transport floor's after another restart; with n8n's /healthz latency while each n8n side runs.
// Beside them, outside the rotation so the other sides run as before, ours from expressions with
// Options › Dry Run on, after each round's rotation: the same 1,000 rows previewed, nothing sent.
// Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/quotes.ts
import { ownCpuMs } from './cpu';
import { healthzDuring, type LatencySummary, summarize } from './healthz';
import { postAll } from './partnerApi';
import { BenchFailure, canonical, median, ms, runWhenMain, timed } from './report';
import { type Route, routeBodies } from './routes';
import { type BenchStack, withBenchStack } from './stack';
import { dryRunMissing, inputFieldsMissing, WORKFLOWS } from './workflows';

/** BENCH_ITEMS=10000: the same bench at ten times the items. */
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
/**
 * Timed rounds, each after a restart of n8n: first ours from expressions (the first run after n8n
 * started) and the fetch floor, a checked warm-up of the other n8n sides, then each side once, the
 * order rotating. BENCH_ROUNDS=1 makes a quick check of the whole path.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FLOOR_CONCURRENCY = 20;
const IDLE_MS = 3000;
const QUOTES = '/partner-api/booking-quotes';
/** Node time against the fetch floor's wall time, in the same round. */
const TARGETS = { expressions: 1.5, inputFields: 1.2 };

const SIDES = ['expressions', 'inputFields', 'transportFloor', 'httpRequest', 'fetch'] as const;
/** Run after each round's rotation, not in it: the other sides' order and results stay as they were. */
const DRY_RUN = 'dryRun' as const;
type Side = (typeof SIDES)[number] | typeof DRY_RUN;
type NodeSide = Exclude<Side, 'fetch'>;
const WORKFLOW_OF = {
	expressions: 'quoteExpressions',
	inputFields: 'quoteInputFields',
	transportFloor: 'transportFloor',
	httpRequest: 'httpRequest',
	dryRun: 'quoteDryRun',
} as const;
const LABELS: Record<Side, string> = {
	expressions: WORKFLOWS.quoteExpressions.label,
	inputFields: WORKFLOWS.quoteInputFields.label,
	transportFloor: WORKFLOWS.transportFloor.label,
	httpRequest: WORKFLOWS.httpRequest.label,
	dryRun: WORKFLOWS.quoteDryRun.label,
	fetch: `fetch floor: a plain Node loop, ${FLOOR_CONCURRENCY} concurrent, from the bench process`,
};

interface Sample {
	wallMs: number;
	/** n8n's executionTime of the node under test (n8n sides only). */
	nodeMs?: number;
	/** CPU of n8n's processes (n8n sides), or of the bench process (fetch floor). */
	cpuMs: number;
	/** /healthz latencies during the run (n8n sides only). */
	healthz?: number[];
}

export async function run(): Promise<string> {
	return await withBenchStack(async (stack) => {
		const routes = routeBodies(ITEMS);
		const expectedBodies = canonical(routes.map(canonical).sort());
		const problems: string[] = [];
		const missing = inputFieldsMissing();
		if (missing) problems.push(missing);
		const sides = SIDES.filter((side) => side !== 'inputFields' || !missing);
		const noDryRun = dryRunMissing();
		if (noDryRun) problems.push(noDryRun);

		const once = async (side: Side, label: string): Promise<Sample> => {
			await stack.admin.post('/reset');
			const { problem, ...sample } = await runSide(stack, side, routes, label, expectedBodies);
			if (problem) problems.push(problem);
			problems.push(...(await check(stack, side, label, expectedBodies)));
			return sample;
		};

		const idle = await healthzDuring(stack.n8nUrl, () => sleep(IDLE_MS));
		const samples = Object.fromEntries(
			[...SIDES, DRY_RUN].map((side) => [side, [] as Sample[]]),
		) as Record<Side, Sample[]>;
		const firstRuns: FirstRun[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			await stack.restartN8n();
			const expressions = await once(
				'expressions',
				`expressions, first run after n8n started ${round + 1}`,
			);
			const fetch = await once('fetch', `fetch after the first run ${round + 1}`);
			await stack.restartN8n();
			const transportFloor = await once(
				'transportFloor',
				`transport floor, first run after n8n started ${round + 1}`,
			);
			firstRuns.push({ expressions, fetch, transportFloor });
			const warm = ['expressions', 'fetch', 'transportFloor'];
			for (const side of sides.filter((s) => !warm.includes(s))) {
				await once(side, `${side} warm-up ${round + 1}`);
			}
			for (let j = 0; j < sides.length; j++) {
				const side = sides[(round + j) % sides.length];
				samples[side].push(await once(side, `${side} round ${round + 1}`));
			}
			if (!noDryRun) {
				await once(DRY_RUN, `${DRY_RUN} warm-up ${round + 1}`);
				samples[DRY_RUN].push(await once(DRY_RUN, `${DRY_RUN} round ${round + 1}`));
			}
		}
		const ran: Side[] = noDryRun ? [...sides] : [...sides, DRY_RUN];
		const section = report(ran, samples, firstRuns, summarize(idle.latencies), problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	});
}

async function runSide(
	stack: BenchStack,
	side: Side,
	routes: Route[],
	label: string,
	expectedBodies: string,
): Promise<Sample & { problem?: string }> {
	if (side === 'fetch') {
		const { cpuMs, value } = await ownCpuMs(
			async () =>
				await timed(
					async () =>
						await postAll(stack.sandbox, QUOTES, routes, {
							concurrency: FLOOR_CONCURRENCY,
							keyPrefix: `floor-${label.replace(/\W+/g, '-')}`,
						}),
				),
		);
		return { wallMs: value.ms, cpuMs };
	}
	const { value: result, latencies } = await healthzDuring(
		stack.n8nUrl,
		async () => await stack.run(WORKFLOW_OF[side], routes),
	);
	const sample = {
		wallMs: result.wallMs,
		nodeMs: result.nodeMs,
		cpuMs: result.n8nCpuMs,
		healthz: latencies,
	};
	if (side === DRY_RUN) return { ...sample, problem: checkPreviews(result, label, expectedBodies) };
	const failed = result.output.filter((item) => typeof item.quoteId !== 'string').length;
	if (result.status !== 200 || result.error || result.output.length !== ITEMS || failed) {
		throw new Error(
			`${label}: webhook answered ${result.status}, ${result.output.length} items out, ` +
				`${failed} without a quoteId${result.error ? `; execution error: ${result.error}` : ''}`,
		);
	}
	return sample;
}

/**
 * A dry run: webhook 200, 1,000 items out, each a preview of a quote POST whose body is its input
 * row (canonical JSON), the API key masked, 1,000 distinct Idempotency-Keys.
 */
function checkPreviews(
	result: Awaited<ReturnType<BenchStack['run']>>,
	label: string,
	expectedBodies: string,
): string | undefined {
	const previews = result.output;
	// A preview item: `request` "POST <url>", `dryRun` its note, the headers with the key masked.
	const notPreviews = previews.filter(
		(item) =>
			typeof item.dryRun !== 'string' ||
			!String(item.request).startsWith('POST ') ||
			!String(item.request).endsWith(QUOTES) ||
			(item.headers as Record<string, string> | undefined)?.['X-SVC-API-Key'] !== '[redacted]',
	).length;
	const keys = new Set(previews.map((item) => item.idempotencyKey)).size;
	if (result.status !== 200 || result.error || previews.length !== ITEMS || notPreviews) {
		return (
			`${label}: webhook answered ${result.status}, ${previews.length} items out, ` +
			`${notPreviews} not a masked preview of a quote POST` +
			`${result.error ? `; execution error: ${result.error}` : ''}`
		);
	}
	if (keys !== ITEMS) return `${label}: ${keys} distinct Idempotency-Keys previewed`;
	if (canonical(previews.map((item) => canonical(item.body)).sort()) !== expectedBodies) {
		return `${label}: the previewed bodies are not the input rows, e.g. ${canonical(previews[0]?.body)}`;
	}
	return undefined;
}

/** Every run: 1,000 quotes in the sandbox, 1,000 POSTs all 201 with 1,000 keys, the input bodies. */
async function check(
	stack: BenchStack,
	side: Side,
	label: string,
	expectedBodies: string,
): Promise<string[]> {
	const problems: string[] = [];
	const { counts } = (await stack.admin.get<{ A: { counts: { quotes: number } } }>('/state')).A;
	if (side === DRY_RUN) {
		const sent = (await stack.admin.get<unknown[]>('/log')).length;
		return sent || counts.quotes
			? [`${label}: a dry run reached the sandbox: ${sent} requests, ${counts.quotes} quotes`]
			: [];
	}
	const log = await stack.admin.get<
		Array<{
			method: string;
			path: string;
			status: number;
			body: unknown;
			headers: Record<string, string>;
		}>
	>('/log');
	const quotePosts = log.filter((entry) => entry.method === 'POST' && entry.path === QUOTES);
	const not201 = log.filter((entry) => entry.status !== 201).length;
	const keys = new Set(quotePosts.map((entry) => entry.headers['idempotency-key'])).size;
	if (counts.quotes !== ITEMS || quotePosts.length !== ITEMS || not201 || keys !== ITEMS) {
		problems.push(
			`${label}: sandbox holds ${counts.quotes} quotes; ${log.length} requests, ` +
				`${quotePosts.length} quote POSTs, ${not201} not 201, ${keys} Idempotency-Keys`,
		);
	}
	if (canonical(quotePosts.map((entry) => canonical(entry.body)).sort()) !== expectedBodies) {
		const sample = quotePosts[0]?.body;
		problems.push(
			`${label}: ${side} sent other bodies than the input rows, e.g. ${canonical(sample)}`,
		);
	}
	if (side !== 'fetch' && quotePosts.some((entry) => !entry.headers['x-svc-api-key'])) {
		problems.push(`${label}: a request without X-SVC-API-Key`);
	}
	return problems;
}

/** One round's first runs after a restart: ours, the fetch floor right after it, the transport floor. */
interface FirstRun {
	expressions: Sample;
	fetch: Sample;
	transportFloor: Sample;
}

const sleep = (msToWait: number) => new Promise<void>((resolve) => setTimeout(resolve, msToWait));

function report(
	sides: readonly Side[],
	samples: Record<Side, Sample[]>,
	firstRuns: FirstRun[],
	idle: LatencySummary,
	problems: string[],
): string {
	const items = ITEMS.toLocaleString('en');
	const ran = (side: Side) => sides.includes(side) && samples[side].length > 0;
	const values = (side: Side, pick: (s: Sample) => number | undefined) =>
		samples[side].map(pick).filter((v): v is number => v !== undefined);
	/** Median over rounds of side ÷ another side in the same round: drift falls on both alike. */
	const ratio = (side: Side, over: Side, pick: (s: Sample) => number | undefined) => {
		const per = samples[side].map((s, i) => {
			const mine = pick(s);
			const theirs = pick(samples[over][i]);
			return mine === undefined || theirs === undefined ? NaN : mine / theirs;
		});
		return median(per.filter((r) => !Number.isNaN(r)));
	};
	/** n8n sides: the node's own time; the fetch floor: its wall time. */
	const work = (s: Sample) => s.nodeMs ?? s.wallMs;
	const floor = (side: Side) => ratio(side, 'fetch', work);
	const transport = (side: Side) => ratio(side, 'transportFloor', (s) => s.nodeMs);
	const cell = (v: number) => (Number.isNaN(v) ? '–' : ms(v));
	const times = (side: Side) => {
		if (!ran(side)) return `| ${LABELS[side]} | not run | | | | | | | |`;
		const median_ = (pick: (s: Sample) => number | undefined) => {
			const got = values(side, pick);
			return got.length ? cell(median(got)) : '–';
		};
		const x = (r: number) => (Number.isNaN(r) ? '–' : `${r.toFixed(2)}×`);
		return (
			`| ${LABELS[side]} | ${median_((s) => s.nodeMs)} | ${x(floor(side))} | ` +
			`${x(transport(side))} | ${x(ratio(side, 'httpRequest', (s) => s.nodeMs))} | ` +
			`${median_((s) => s.wallMs)} | ` +
			`${x(ratio(side, 'httpRequest', (s) => s.wallMs))} | ${median_((s) => s.cpuMs)} | ` +
			`${x(ratio(side, 'httpRequest', (s) => s.cpuMs))} |`
		);
	};
	const latencyRow = (label: string, s: LatencySummary) =>
		`| ${label} | ${s.samples} | ${s.p50.toFixed(1)} ms | ${s.p95.toFixed(1)} ms | ${s.max.toFixed(1)} ms |`;
	const during = (side: NodeSide) => summarize(samples[side].flatMap((s) => s.healthz ?? []));
	const verdict = (r: number, bar: number) => (r <= bar ? 'met' : '**missed**');
	const firstRatio = median(firstRuns.map((r) => r.expressions.nodeMs! / r.fetch.wallMs));
	const firstFloorRatio = median(firstRuns.map((r) => r.transportFloor.nodeMs! / r.fetch.wallMs));
	const target = (side: 'expressions' | 'inputFields') => {
		const bar = TARGETS[side];
		if (!ran(side)) return `- ${side}: target ≤ ${bar}× the fetch floor: **not measured**.`;
		const r = floor(side);
		return (
			`- ${side === 'expressions' ? 'Route from expressions, later runs' : 'Route Source: input fields'}: ` +
			`node time ${r.toFixed(2)}× the fetch floor's time (${ratio(side, 'httpRequest', (s) => s.nodeMs).toFixed(2)}× ` +
			`HTTP Request's, ${transport(side).toFixed(2)}× the transport floor's); target ≤ ${bar}×: ` +
			`${verdict(r, bar)}.`
		);
	};
	const runs = (side: Side) => {
		if (!ran(side)) return `Runs, ${side}: not run.  `;
		const node = side === 'fetch' ? '' : 'node / ';
		const each = samples[side].map((s) =>
			[s.nodeMs, s.wallMs, s.cpuMs]
				.filter((v): v is number => v !== undefined)
				.map(Math.round)
				.join(' / '),
		);
		return `Runs, ${side} (ms, ${node}wall / CPU): ${each.join(', ')}.  `;
	};
	const first = firstRuns
		.map(
			(r) =>
				`${Math.round(r.expressions.nodeMs!)} / ${Math.round(r.fetch.wallMs)} / ` +
				`${Math.round(r.transportFloor.nodeMs!)}`,
		)
		.join(', ');
	return [
		`### Quote › Create, ${items} items, in real n8n`,
		'',
		`n8n 2.41.1 (regular mode, SQLite), this package packed and installed as from the UI. Each n8n ` +
			`side is one workflow: Webhook (answers when the last node is done) → Split Out (${items} ` +
			`route rows from the posted body) → the node under test, which POSTs ${items} quotes to the ` +
			`sandbox (own process, no limit, loopback). HTTP Request: one \`JSON.stringify({…})\` body ` +
			`expression over 7 \`$json\` fields, Header Auth credential with the same key, ` +
			`Idempotency-Key header from an expression. Ours from expressions: 7 \`={{ $json.… }}\` ` +
			`route parameters. Transport floor: a bench-only node (loaded through ` +
			`N8N_CUSTOM_EXTENSIONS, never packed) that POSTs each item's JSON through n8n's own request ` +
			`helper with our credential, 20 at a time, and nothing else (no parameters, checks, ` +
			`pacing, retries or key memory): what sending through n8n costs any node. Fresh sandbox ` +
			`state per run. ${ROUNDS} rounds, each after a restart of ` +
			`n8n: first ours from expressions (**the first run after n8n started**: nothing learned of ` +
			`the key, n8n itself cold) and the fetch floor right after it, then n8n restarted again ` +
			`for the transport floor's first run, then a checked warm-up of ` +
			`the other n8n sides, then each side once, the order rotating (**later runs**). Node time ` +
			`is n8n's \`executionTime\` of the node under test (public API, includeData); wall is POST ` +
			`to the webhook → its answer (the whole execution); CPU is the user + system time n8n's ` +
			`processes spent meanwhile (/proc; for the fetch floor, the bench process's own), the ` +
			`measure the machine's other load moves least. Ratios are the median over rounds of ` +
			`side ÷ the fetch floor (node time ÷ its wall time) or ÷ HTTP Request in the same round. ` +
			`Dry Run: ours from expressions with Options › Dry Run on, the same rows, each item's ` +
			`request output and nothing sent; outside the rotation (the other sides run as without ` +
			`it), after each round's rotation: a checked warm-up, then the timed run.`,
		'',
		'| Side | node time (median) | × fetch floor | × transport floor | × HTTP Request | wall (median) | × HTTP Request | CPU (median) | × HTTP Request |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|',
		...[...SIDES, DRY_RUN].map(times),
		'',
		`- Route from expressions, **first run after n8n started**: node time ` +
			`${firstRatio.toFixed(2)}× the fetch floor right after it (median of ${firstRuns.length}; ` +
			`ms, node / floor / transport floor's first run: ${first}); target ≤ ` +
			`${TARGETS.expressions}×: ${verdict(firstRatio, TARGETS.expressions)}. The transport ` +
			`floor's own first run after a restart: ${firstFloorRatio.toFixed(2)}× that fetch floor.`,
		target('expressions'),
		target('inputFields'),
		ran('transportFloor')
			? `- Transport floor (n8n's request helper and nothing else, later runs): ` +
				`${floor('transportFloor').toFixed(2)}× the fetch floor: the least a node sending ` +
				`through n8n pays.`
			: '- Transport floor: not run.',
		ran('httpRequest')
			? `- n8n's HTTP Request node: ${floor('httpRequest').toFixed(2)}× the fetch floor (no bar; ` +
				`it sends every item at once and knows no rate limit).`
			: '- HTTP Request: not run.',
		ran(DRY_RUN)
			? `- Ours from expressions, **Dry Run** (nothing sent): node time ` +
				`${cell(median(values(DRY_RUN, (s) => s.nodeMs)))}, ` +
				`**${ratio(DRY_RUN, 'expressions', (s) => s.nodeMs).toFixed(2)}× ours for real** ` +
				`(${cell(median(values('expressions', (s) => s.nodeMs)))}) in the same round; wall ` +
				`${ratio(DRY_RUN, 'expressions', (s) => s.wallMs).toFixed(2)}×, CPU ` +
				`${ratio(DRY_RUN, 'expressions', (s) => s.cpuMs).toFixed(2)}× (no bar).`
			: '- Dry Run: not run.',
		'',
		`n8n's \`GET /healthz\` latency, polled about every 50 ms from the bench process (idle: ` +
			`${IDLE_MS / 1000} s before the runs; during: the ${ROUNDS} later runs of that side):`,
		'',
		'| n8n | samples | p50 | p95 | max |',
		'|---|---:|---:|---:|---:|',
		latencyRow('idle', idle),
		...(['expressions', 'inputFields', 'transportFloor', 'httpRequest'] as const)
			.filter(ran)
			.map((side) => latencyRow(`during ${LABELS[side].replaceAll('*', '')}`, during(side))),
		'',
		...[...SIDES, DRY_RUN].map(runs),
		`Checks (every run: ${items} quotes in the sandbox, ${items} POSTs all 201 with ${items} ` +
			`distinct Idempotency-Keys, bodies identical to the input rows; every n8n run: webhook ` +
			`200, ${items} items out, each with a quoteId; every Dry Run: no request reached the ` +
			`sandbox, ${items} previews of a quote POST with the key masked, ${items} distinct ` +
			`Idempotency-Keys, bodies identical to the input rows): ` +
			`${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
