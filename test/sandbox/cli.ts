// npm run sandbox [-- --port 4010 --rate-limit 5 --quote-ttl-ms 60000 --keys-file keys.json --json]
// With --json, stdout carries exactly one JSON line (for programs that start this as a child
// process) and the human-readable block goes to stderr.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { type ListShape, type SandboxKeys, startSandbox } from './index';

const USAGE = `Usage: ts-node --transpile-only test/sandbox/cli.ts [options]
  --port N            port on 127.0.0.1 (env SANDBOX_PORT; default random)
  --rate-limit N      requests per second per key (env SANDBOX_RATE_LIMIT; default none)
  --rate-headers      X-RateLimit-Limit/-Remaining/-Reset on every answer, not only on a 429
                      (env SANDBOX_RATE_HEADERS=1|true|0|false; default off)
  --latency-ms N      hold each request and each answer N ms, like a network
                      (env SANDBOX_LATENCY_MS; default 0)
  --quote-ttl-ms N    quote validity (env SANDBOX_QUOTE_TTL_MS; default 900000)
  --keys-file F       JSON {full, noSupport, readOnly, otherOrg} (or env SANDBOX_KEYS_JSON)
  --admin-token T     (env SANDBOX_ADMIN_TOKEN; default random)
  --list-shape S      array | cursor (env SANDBOX_LIST_SHAPE; default array)
  --seed N            seed for random fault rates
  --replay-refusals   also store and replay a handler's 4xx other than 409/429
  --repeat-actions    a new Idempotency-Key books, pays or accepts credit again
                      (env SANDBOX_REPLAY_REFUSALS=1|true|0|false; default off)
  --json              one JSON line on stdout, the human block on stderr`;

function numberOption(value: string | undefined, name: string): number | undefined {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	if (!Number.isFinite(n))
		throw new Error(`${name} must be a number; got ${JSON.stringify(value)}`);
	return n;
}

function booleanEnv(value: string | undefined, name: string): boolean | undefined {
	if (value === undefined || value === '') return undefined;
	if (['1', 'true'].includes(value.toLowerCase())) return true;
	if (['0', 'false'].includes(value.toLowerCase())) return false;
	throw new Error(`${name} must be 1, true, 0 or false; got ${JSON.stringify(value)}`);
}

function readKeys(file: string | undefined): Partial<SandboxKeys> | undefined {
	const json = file ? readFileSync(file, 'utf8') : process.env.SANDBOX_KEYS_JSON;
	return json ? (JSON.parse(json) as Partial<SandboxKeys>) : undefined;
}

async function main() {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			'rate-limit': { type: 'string' },
			'rate-headers': { type: 'boolean', default: false },
			'latency-ms': { type: 'string' },
			'quote-ttl-ms': { type: 'string' },
			'keys-file': { type: 'string' },
			'admin-token': { type: 'string' },
			'list-shape': { type: 'string' },
			seed: { type: 'string' },
			'replay-refusals': { type: 'boolean', default: false },
			'repeat-actions': { type: 'boolean', default: false },
			json: { type: 'boolean', default: false },
			help: { type: 'boolean', default: false },
		},
	});
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const env = process.env;
	const sandbox = await startSandbox({
		port: numberOption(values.port ?? env.SANDBOX_PORT, '--port'),
		rateLimitPerSecond:
			numberOption(values['rate-limit'] ?? env.SANDBOX_RATE_LIMIT, '--rate-limit') ?? null,
		rateHeaders:
			values['rate-headers'] || booleanEnv(env.SANDBOX_RATE_HEADERS, 'SANDBOX_RATE_HEADERS'),
		latencyMs: numberOption(values['latency-ms'] ?? env.SANDBOX_LATENCY_MS, '--latency-ms'),
		quoteTtlMs: numberOption(values['quote-ttl-ms'] ?? env.SANDBOX_QUOTE_TTL_MS, '--quote-ttl-ms'),
		keys: readKeys(values['keys-file']),
		adminToken: values['admin-token'] ?? env.SANDBOX_ADMIN_TOKEN,
		listShape: (values['list-shape'] ?? env.SANDBOX_LIST_SHAPE) as ListShape | undefined,
		seed: numberOption(values.seed, '--seed'),
		replayRefusals:
			values['replay-refusals'] ||
			booleanEnv(env.SANDBOX_REPLAY_REFUSALS, 'SANDBOX_REPLAY_REFUSALS'),
		repeatActions:
			values['repeat-actions'] || booleanEnv(env.SANDBOX_REPEAT_ACTIONS, 'SANDBOX_REPEAT_ACTIONS'),
	});

	const info = {
		url: sandbox.url,
		origin: sandbox.origin,
		keys: sandbox.keys,
		adminToken: sandbox.adminToken,
		savedCards: sandbox.savedCards,
		hubs: sandbox.hubs,
		redirectTargetOrigin: sandbox.redirectTarget.origin,
	};
	const human = [
		'Partner Logistics sandbox is running',
		`  Base URL (credential):   ${info.url}`,
		`  Org A, full access:      ${info.keys.full}`,
		`  Org A, no support:*:     ${info.keys.noSupport}`,
		`  Org A, read only:        ${info.keys.readOnly}`,
		`  Org B, full access:      ${info.keys.otherOrg}`,
		`  Admin token:             ${info.adminToken}  (header x-sandbox-admin-token, ${info.origin}/__admin/...)`,
		`  Saved card (API charges enabled): ${info.savedCards.enabled}`,
		`  Saved card (not enabled):         ${info.savedCards.notEnabled}`,
		`  Active hubs: ${info.hubs.active.join(', ')}`,
		`  Redirect target (redirect faults): ${info.redirectTargetOrigin}`,
		'Press Ctrl+C to stop.',
	].join('\n');
	if (values.json) {
		process.stderr.write(`${human}\n`);
		process.stdout.write(`${JSON.stringify(info)}\n`);
	} else {
		process.stdout.write(`${human}\n`);
	}

	const stop = () => {
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
	process.stderr.write(`sandbox: ${(error as Error).message ?? error}\n${USAGE}\n`);
	process.exit(1);
});
