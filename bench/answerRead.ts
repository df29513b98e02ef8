// What reading an answer costs through n8n's own transport, side by side: as text (before issue
// 30), with a timeout signal per request, with today's shared deadline, and streamed and bounded
// as the node reads it today. The client runs on n8n's Node with n8n's request function and this
// package's built `answer.js` (bench/answerRead/client.js); the answering server runs here, so
// the client's CPU is its own. Run alone: npx ts-node --transpile-only bench/answerRead.ts
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { node24, runtimeDir } from '../test/e2e/lib/paths';
import { BenchFailure, median, runWhenMain } from './report';

const ROUNDS = Number(process.env.BENCH_ANSWER_ROUNDS ?? 20);
const WARMUP = 5;
const PACKAGE_DIST = join(__dirname, '../dist');
/** A quote as the API answers one, about 400 bytes. */
const ANSWER = JSON.stringify({
	quoteId: 'qt_0123456789abcdef',
	serviceType: 'CLICK',
	price: { amount: 1850, currency: 'NGN' },
	expiresAt: '2026-11-26T12:00:00.000Z',
	route: { pickup: { latitude: 6.6018, longitude: 3.3515 }, stops: [] },
	note: 'x'.repeat(200),
});

const SIDES: Array<[name: string, label: string]> = [
	['text', 'text, the execution’s signal only (before issue 30)'],
	['textTimeoutEach', 'text, one `AbortSignal.timeout` per request (issue 30 as first built)'],
	['textShared', 'text, the shared deadline (attempts within 50 ms share one timeout signal)'],
	[
		'streamShared',
		'**streamed and bounded by `readBoundedBody`, the shared deadline (the node today)**',
	],
];

export async function run(): Promise<string> {
	const requestRoom = join(PACKAGE_DIST, 'nodes/PartnerLogistics/pipeline/request');
	if (!['answerBounds.js', 'answer.js'].some((file) => existsSync(join(requestRoom, file)))) {
		throw new Error('answerRead reads the built package: run `npm run build` first');
	}
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(201, { 'Content-Type': 'application/json' });
			response.end(ANSWER);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	let result: { node: string; cpuMs: Record<string, number[]> };
	try {
		const { stdout } = await promisify(execFile)(
			node24,
			[join(__dirname, 'answerRead/client.js')],
			{
				env: {
					...process.env,
					RUNTIME_MODULES: join(runtimeDir, 'node_modules'),
					PACKAGE_DIST,
					TARGET: `http://127.0.0.1:${port}/api/v1`,
					ROUNDS: String(ROUNDS),
					WARMUP: String(WARMUP),
				},
				maxBuffer: 1 << 20,
			},
		);
		result = JSON.parse(stdout) as typeof result;
	} finally {
		await new Promise((resolve) => server.close(resolve));
	}
	const title = '### Reading an answer through n8n’s transport, 1,000 quotes';
	const missing = SIDES.map(([name]) => name).filter(
		(name) => result.cpuMs[name]?.length !== ROUNDS,
	);
	if (missing.length) {
		const problem = `sides without ${ROUNDS} rounds: ${missing.join(', ')}`;
		throw new BenchFailure(`${title}\n\n${problem}\n`, [problem]);
	}
	const base = median(result.cpuMs.text);
	const rows = SIDES.map(([name, label]) => {
		const cpu = median(result.cpuMs[name]);
		// Milliseconds per 1,000 requests are microseconds per request.
		const extra = name === 'text' ? '–' : `${cpu >= base ? '+' : ''}${Math.round(cpu - base)} µs`;
		return `| ${label} | ${Math.round(cpu)} ms | ${(cpu / base).toFixed(2)}× | ${extra} |`;
	});
	return [
		title,
		'',
		`n8n's own request function (@n8n/backend-network's \`httpRequest\`, behind \`this.helpers.httpRequest\`) on n8n's Node (${result.node}), from a child process whose CPU is measured; the server answering a 400-byte quote runs in the bench process. Each round POSTs 1,000 quotes, 20 at a time, once per side, the order rotating; ${WARMUP} warm-up rounds, then ${ROUNDS}. CPU is the child's user + system time, the median over rounds.`,
		'',
		'| How the answer is read and bounded in time | CPU per 1,000 (median) | × text | per request |',
		'|---|---:|---:|---:|',
		...rows,
		'',
	].join('\n');
}

runWhenMain(module, run);
