// The answerRead bench's client, run by bench/answerRead.ts on n8n's own Node with n8n's own
// request function (@n8n/backend-network's httpRequest, behind this.helpers.httpRequest) and this
// package's built answer reading: each round POSTs 1,000 quotes, 20 at a time, once per side, the
// order rotating, and measures the CPU this process spent. Plain JavaScript, like the transport floor.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');

const { RUNTIME_MODULES, PACKAGE_DIST, TARGET, ROUNDS, WARMUP } = process.env;
const { httpRequest } = require(
	join(RUNTIME_MODULES, '@n8n/backend-network/dist/http/axios/request.js'),
);
// The answer bounds of either build: answer.js (readBody, Deadlines.next) until issue 36 named
// them answerBounds.js (readBoundedBody, Deadlines.start), so the two can be measured in turn.
const requestRoom = join(PACKAGE_DIST, 'nodes/PartnerLogistics/pipeline/request');
const bounds = existsSync(join(requestRoom, 'answerBounds.js'))
	? require(join(requestRoom, 'answerBounds.js'))
	: require(join(requestRoom, 'answer.js'));
const { Deadlines } = bounds;
const readBoundedBody = bounds.readBoundedBody ?? bounds.readBody;
const startOf = (deadlines) => (deadlines.start ?? deadlines.next).call(deadlines);

const REQUESTS = 1000;
const IN_FLIGHT = 20;
const TIMEOUT_MS = 30_000;
const body = JSON.stringify({
	serviceType: 'CLICK',
	pickupLatitude: 6.6018,
	dropoffLatitude: 6.4474,
});
const execution = new AbortController();

/** As the node sends a quote, but for how the answer is read and what bounds it in time. */
const options = (encoding, abortSignal) => ({
	method: 'POST',
	baseURL: TARGET,
	url: '/partner-api/booking-quotes',
	headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
	body,
	encoding,
	json: false,
	returnFullResponse: true,
	ignoreHttpStatusErrors: true,
	disableFollowRedirect: true,
	timeout: TIMEOUT_MS,
	abortSignal,
});

/** Each side sends one request and gives back its body as text. */
const SIDES = {
	// Before issue 30: text, bounded by the execution's signal and axios' header timeout only.
	text: async () => (await httpRequest(options('text', execution.signal))).body,
	// The first deadline over the whole answer: a timeout signal per request.
	textTimeoutEach: async () =>
		(await httpRequest(options('text', AbortSignal.timeout(TIMEOUT_MS)))).body,
	// Today's deadline alone: attempts starting within 50 ms share one timeout signal.
	textShared: async (deadlines) => {
		const attempt = startOf(deadlines);
		try {
			return (await httpRequest(options('text', attempt.signal))).body;
		} finally {
			attempt.release();
		}
	},
	// What the node does today: the shared deadline, the body streamed and bounded (readBoundedBody).
	streamShared: async (deadlines) => {
		const attempt = startOf(deadlines);
		try {
			const response = await httpRequest(options('stream', attempt.signal));
			return await readBoundedBody(response.body, attempt.signal);
		} finally {
			attempt.release();
		}
	},
};

async function round(side) {
	const deadlines = new Deadlines(TIMEOUT_MS, execution.signal);
	const before = process.cpuUsage();
	let next = 0;
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (next < REQUESTS) {
				next++;
				const text = await SIDES[side](deadlines);
				if (!String(text).startsWith('{"quoteId"')) throw new Error(`${side}: ${text}`);
			}
		}),
	);
	const cpu = process.cpuUsage(before);
	return (cpu.user + cpu.system) / 1000;
}

(async () => {
	const names = Object.keys(SIDES);
	const cpuMs = Object.fromEntries(names.map((name) => [name, []]));
	for (let r = 0; r < Number(ROUNDS) + Number(WARMUP); r++) {
		for (let i = 0; i < names.length; i++) {
			const side = names[(r + i) % names.length];
			const ms = await round(side);
			if (r >= Number(WARMUP)) cpuMs[side].push(ms);
		}
	}
	process.stdout.write(JSON.stringify({ node: process.version, cpuMs }));
})().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
