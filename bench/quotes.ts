// Quote › Create on 1,000 items through n8n's engine, against a plain-HTTP node sending the same
// 1,000 requests through the same engine. Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/quotes.ts

import { registerNodeType, runNode, runWorkflow, type RunResult } from '../test/harness';
import { BASELINE_NODE_TYPE, BaselineQuote } from './baselineNode';
import { DECLARATIVE_NODE_TYPE, DeclarativeQuote } from './declarativeNode';
import { countEvaluations } from './expressions';
import { BenchFailure, canonical, median, ms, runWhenMain, timed } from './report';
import { declarativeParameters, quoteCreateParameters, routeBodies } from './routes';
import { startBenchSandbox, type BenchSandbox } from './sandbox';

const ITEMS = 1000;
/** Timed runs per side, after one untimed warm-up each. */
const RUNS = 5;

const SIDES = ['baseline', 'declarative', 'node'] as const;
type Side = (typeof SIDES)[number];
type Times = Record<Side, number[]>;
/** Expression evaluations per item, counted in the warm-up. */
type Evaluations = Record<Side, number | undefined>;

export async function run(): Promise<string> {
	registerNodeType(BASELINE_NODE_TYPE, new BaselineQuote());
	registerNodeType(DECLARATIVE_NODE_TYPE, new DeclarativeQuote());
	const sandbox = await startBenchSandbox();
	const input = routeBodies(ITEMS);
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
	const other =
		(type: string, parameters = {}) =>
		async () =>
			await runWorkflow({ nodes: [{ type, parameters }], input, credentials });
	const sides: Record<Side, () => Promise<RunResult>> = {
		baseline: other(BASELINE_NODE_TYPE),
		declarative: other(DECLARATIVE_NODE_TYPE, declarativeParameters),
		node: async () => await runNode(quoteCreateParameters, { input, credentials }),
	};
	const problems: string[] = [];
	const once = async (side: Side) => {
		await sandbox.reset();
		const { ms: took, value } = await timed(sides[side]);
		problems.push(...(await check(sandbox, side, value)));
		return took;
	};

	try {
		// Warm-up, and proof that all sides send the same requests.
		const sent: Partial<Record<Side, Sent>> = {};
		const evaluations: Partial<Evaluations> = {};
		for (const side of SIDES) {
			const count = await countEvaluations(async () => await once(side));
			evaluations[side] = count === undefined ? undefined : Number((count / ITEMS).toFixed(1));
			sent[side] = await requestsSent(sandbox);
		}
		problems.push(...sameRequests(sent as Record<Side, Sent>));

		const times: Times = { baseline: [], declarative: [], node: [] };
		// Round robin, each round starting one side later, spreads the machine's drift over all.
		for (let i = 0; i < RUNS; i++) {
			for (let j = 0; j < SIDES.length; j++) {
				const side = SIDES[(i + j) % SIDES.length];
				times[side].push(await once(side));
			}
		}
		const section = report(sandbox, times, evaluations as Evaluations, problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	} finally {
		await sandbox.close();
	}
}

/** Every run must have produced its 1,000 quotes and nothing else. */
async function check(sandbox: BenchSandbox, side: Side, result: RunResult): Promise<string[]> {
	const problems: string[] = [];
	const error = result.error();
	if (error) problems.push(`${side}: node error ${error.message}`);
	const output = result.output();
	const failed = output.filter((item) => item.error || !item.json.quoteId).length;
	if (output.length !== ITEMS || failed) {
		problems.push(`${side}: ${output.length} items out, ${failed} without a quote`);
	}
	const { counts } = (await sandbox.state()).A;
	const statuses = (await sandbox.requests()).filter((entry) => entry.status !== 201).length;
	if (counts.quotes !== ITEMS || statuses) {
		problems.push(`${side}: sandbox holds ${counts.quotes} quotes, ${statuses} non-201 answers`);
	}
	return problems;
}

interface Sent {
	bodies: string;
	headerNames: string;
}

async function requestsSent(sandbox: BenchSandbox): Promise<Sent> {
	const log = await sandbox.requests();
	const names = new Set(log.flatMap((entry) => Object.keys(entry.headers)));
	return {
		bodies: canonical(log.map((entry) => canonical(entry.body)).sort()),
		headerNames: [...names].sort().join(', '),
	};
}

/** All sides must send the same bodies with the same headers, or the ratio compares nothing. */
function sameRequests(sent: Record<Side, Sent>): string[] {
	const problems: string[] = [];
	for (const side of SIDES) {
		if (sent[side].bodies !== sent.baseline.bodies) {
			problems.push(`${side} sent other bodies than the baseline`);
		}
		if (sent[side].headerNames !== sent.baseline.headerNames) {
			problems.push(`${side} sent headers [${sent[side].headerNames}]`);
		}
	}
	return problems;
}

function report(sandbox: BenchSandbox, times: Times, evaluations: Evaluations, problems: string[]) {
	const mid = (side: Side) => median(times[side]);
	const row = (label: string, side: Side) => {
		const values = times[side];
		const min = Math.min(...values);
		const max = Math.max(...values);
		const ratio = (mid(side) / mid('baseline')).toFixed(2);
		const evals = evaluations[side] ?? 'n/a';
		return `| ${label} | ${ms(mid(side))} | ${ms(min)} | ${ms(max)} | ${ratio}× | ${evals} |`;
	};
	const perItem = (a: Side, b: Side) => `${((mid(a) - mid(b)) / ITEMS).toFixed(2)} ms`;
	const items = ITEMS.toLocaleString('en');
	return [
		`### Quote › Create, ${items} items`,
		'',
		`Each side runs through n8n-core's \`WorkflowExecute\` (test/harness) and POSTs the same ` +
			`${items} bodies, all items at once, to the sandbox (${sandbox.where}). Fresh sandbox ` +
			`state per run; one warm-up each, then ${RUNS} timed runs each, round robin.`,
		'',
		'| Side | median | min | max | × baseline (medians) | expressions evaluated per item |',
		'|---|---:|---:|---:|---:|---:|',
		row('baseline: programmatic node, plain `this.helpers.httpRequest`', 'baseline'),
		row('reference: bare declarative node, route from expressions', 'declarative'),
		row('**Partner Logistics, Quote › Create**', 'node'),
		'',
		`**Ratio node / baseline: ${(mid('node') / mid('baseline')).toFixed(2)}×** ` +
			`(${perItem('node', 'baseline')} more per item; of that, ` +
			`${perItem('declarative', 'baseline')} is the bare declarative node's and ` +
			`${perItem('node', 'declarative')} the node's own).`,
		'',
		...SIDES.map((side) => `Runs, ${side} (ms): ${times[side].map(Math.round).join(', ')}.  `),
		`Checks (every run: ${items} quotes in the sandbox, ${items} items out, all 201; all sides ` +
			`sent identical bodies and header names): ` +
			`${problems.length ? `**FAILED**: ${problems.join('; ')}` : 'passed'}.`,
		'',
	].join('\n');
}

runWhenMain(module, run);
