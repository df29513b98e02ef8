// Booking › Create for 300 quotes against a sandbox limited to 50 requests/s: every item must get
// its booking (429s retried after Retry-After), none twice, in about the 6 s the limit allows.
// Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/rateLimit.ts

import type { INodeParameters } from 'n8n-workflow';

import { DEFAULTS } from '../nodes/PartnerLogistics/shared/settings';
import { runNode } from '../test/harness';
import { BenchFailure, runWhenMain, seconds, timed } from './report';
import { quoteCreateParameters, routeBodies } from './routes';
import { startBenchSandbox, type BenchSandbox } from './sandbox';

const BOOKINGS = 300;
const LIMIT = 50;
const FLOOR_MS = (BOOKINGS / LIMIT) * 1000;
/** Fewer retries than 300 items at 50/s need (each round gets about 50 through), for information. */
const FEW_RETRIES = 3;

interface Outcome {
	ms: number;
	failed: number;
	firstError?: string;
	bookings: number;
	requests: number;
	status429: number;
	replayed: number;
	/** Distinct Idempotency-Keys sent: one per item when retries reuse the key. */
	keys: number;
	/** The most requests one item needed (one Idempotency-Key). */
	mostTries: number;
	/** When the first and the last request reached the sandbox, ms after the run started. */
	firstAt: number;
	lastAt: number;
}

export async function run(): Promise<string> {
	const sandbox = await startBenchSandbox();
	try {
		const main = await bookAll(sandbox, {});
		const withFew = await bookAll(sandbox, { maxRetries: FEW_RETRIES });
		const problems = [
			main.failed && `${main.failed} items failed`,
			main.bookings !== BOOKINGS && `${main.bookings} bookings in the sandbox`,
		].filter((problem): problem is string => !!problem);
		const section = report(sandbox, main, withFew, problems);
		if (problems.length) throw new BenchFailure(section, problems);
		return section;
	} finally {
		await sandbox.close();
	}
}

/** Quotes 300 routes with no limit (untimed), then books them at 50/s (timed). */
async function bookAll(sandbox: BenchSandbox, options: INodeParameters): Promise<Outcome> {
	await sandbox.reset();
	await sandbox.setRateLimit(null);
	const credentials = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
	const quoted = await runNode(quoteCreateParameters, {
		input: routeBodies(BOOKINGS),
		credentials,
	});
	const quotes = quoted.output().filter((item) => !item.error && item.json.quoteId);
	if (quoted.error() || quotes.length !== BOOKINGS) {
		throw new Error(`setup: ${quotes.length} of ${BOOKINGS} quotes (${quoted.error()?.message})`);
	}

	await sandbox.setRateLimit(LIMIT);
	await sandbox.clearLog();
	const started = Date.now();
	const { ms, value } = await timed(
		async () =>
			await runNode(
				{ resource: 'booking', operation: 'create', options },
				{
					input: quotes.map((item) => item.json),
					credentials,
					// Failed items become error items, so they can be counted one by one.
					settings: { onError: 'continueRegularOutput' },
				},
			),
	);
	const output = value.output();
	const errors = output.filter((item) => item.error || item.json.error || !item.json.bookingId);
	const log = await sandbox.requests();
	const tries = new Map<string, number>();
	for (const entry of log) {
		const key = entry.headers['idempotency-key'];
		tries.set(key, (tries.get(key) ?? 0) + 1);
	}
	const nodeError = value.error();
	return {
		ms,
		failed: nodeError ? BOOKINGS : errors.length + Math.max(0, BOOKINGS - output.length),
		firstError: nodeError?.message ?? errorText(errors[0]?.error ?? errors[0]?.json.error),
		bookings: (await sandbox.state()).A.counts.bookings,
		requests: log.length,
		status429: log.filter((entry) => entry.status === 429).length,
		replayed: log.filter((entry) => entry.replayed).length,
		keys: tries.size,
		mostTries: Math.max(0, ...tries.values()),
		firstAt: Math.min(...log.map((entry) => entry.at)) - started,
		lastAt: Math.max(...log.map((entry) => entry.at)) - started,
	};
}

function errorText(error: unknown): string | undefined {
	if (error === undefined || error === null) return undefined;
	if (error instanceof Error) {
		const description = (error as { description?: string }).description;
		return description ? `${error.message} (${description})` : error.message;
	}
	return typeof error === 'string' ? error : JSON.stringify(error);
}

function report(sandbox: BenchSandbox, main: Outcome, fallback: Outcome, problems: string[]) {
	const row = (label: string, o: Outcome) =>
		`| ${label} | ${o.failed} | ${o.bookings} | ${o.requests} | ${o.status429} | ` +
		`${o.replayed} | ${o.mostTries} | ${seconds(o.ms)} | ${(o.ms / FLOOR_MS).toFixed(2)}× |`;
	return [
		`### Booking › Create, ${BOOKINGS} items at ${LIMIT} requests/s`,
		'',
		`${BOOKINGS} quotes made first with no limit (untimed), their output fed to Booking › ` +
			`Create with the sandbox (${sandbox.where}) limited to ${LIMIT} accepted requests per ` +
			`rolling second. Floor: ${BOOKINGS} / ${LIMIT} = ${seconds(FLOOR_MS)}. ` +
			`On Error: Continue, so failed items are counted one by one.`,
		'',
		'| `options.maxRetries` | failed items | bookings in sandbox | requests | 429s | replays | ' +
			'most tries of one item | total time | × 6 s floor |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|',
		row(`**${DEFAULTS.maxRetries} (the node's default)**`, main),
		row(`${FEW_RETRIES} (for information)`, fallback),
		'',
		`With the default the first request reached the sandbox ${seconds(main.firstAt)} ` +
			`after the run started, the last ${seconds(main.lastAt)} after; the ${main.requests} ` +
			`requests carried ${main.keys} distinct Idempotency-Keys for ${BOOKINGS} items.`,
		'',
		`Result with the default: ` +
			(problems.length
				? `**FAILED**: ${problems.join('; ')}.`
				: `passed (0 failures, ${BOOKINGS} bookings).`),
		...(fallback.firstError
			? ['', `With ${FEW_RETRIES} retries, a failed item says: "${fallback.firstError}"`]
			: []),
		'',
	].join('\n');
}

runWhenMain(module, run);
