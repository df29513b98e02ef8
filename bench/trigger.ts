// Signed deliveries through the Partner Logistics Trigger against n8n's own Webhook node, in real
// n8n (test/e2e/runtime), same load for both. Needs the runtime (npm run e2e:install) and a current
// dist/ (npm run build). Run alone: npx ts-node --transpile-only --prefer-ts-exts bench/trigger.ts
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	CREDENTIAL_IDS,
	credentialName,
	credentialsFor,
	newSigningSecret,
} from '../test/e2e/lib/fixtures';
import { waitFor } from '../test/e2e/lib/http';
import type { N8nClient } from '../test/e2e/lib/n8nApi';
import { installCleanupHooks } from '../test/e2e/lib/processes';
import { startStack } from '../test/e2e/lib/stack';
import { signStandardWebhook } from '../test/sandbox';
import { BenchFailure, median, runWhenMain } from './report';
import { BENCH_OWNER } from './stack';

const CONCURRENCY = 20;
const PER_ROUND = 40;
/**
 * Timed rounds per side, in pairs (one round of each side back to back, ABBA order). Load from
 * other work on a shared machine swings a round's rate by 2x, so the ratio is the median of the
 * per-pair ratios: each pair's two rounds ran under much the same load.
 */
const ROUNDS = 8;
const WARM_UP = 60;
/** The bar: our trigger accepts at least this share of the Webhook node's rate. */
const MIN_RATIO = 0.9;

const SIDES = {
	trigger: {
		workflowId: 'plBenchTrigger01',
		label: 'Partner Logistics Trigger (Standard Webhooks)',
	},
	webhook: { workflowId: 'plBenchWebhook01', label: "n8n's Webhook node (onReceived)" },
} as const;
type Side = keyof typeof SIDES;

const TRIGGER_WEBHOOK_ID = 'a4d1f2c3-5b6e-4f70-8a9b-0c1d2e3f4a5b';
const WEBHOOK_PATH = 'bench-partner-events';

function workflows() {
	const settings = { executionOrder: 'v1' };
	return [
		{
			id: SIDES.trigger.workflowId,
			name: 'Bench: Partner Logistics Trigger',
			settings,
			connections: {},
			nodes: [
				{
					id: randomUUID(),
					name: 'Partner Logistics Trigger',
					type: 'n8n-nodes-partner-logistics.partnerLogisticsTrigger',
					typeVersion: 1.1,
					position: [0, 0],
					webhookId: TRIGGER_WEBHOOK_ID,
					parameters: { signatureScheme: 'standardWebhooks', events: '', options: {} },
					credentials: {
						partnerLogisticsApi: { id: CREDENTIAL_IDS.full, name: credentialName.full },
					},
				},
			],
		},
		{
			id: SIDES.webhook.workflowId,
			name: "Bench: n8n's Webhook node",
			settings,
			connections: {},
			nodes: [
				{
					id: randomUUID(),
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: {
						httpMethod: 'POST',
						path: WEBHOOK_PATH,
						responseMode: 'onReceived',
						options: {},
					},
				},
			],
		},
	];
}

interface Delivery {
	body: string;
	headers: Record<string, string>;
}

/** Standard Webhooks deliveries, each its own event id, signed now: both sides get the same kind. */
function deliveries(secret: string, count: number): Delivery[] {
	return Array.from({ length: count }, (_, i) => {
		const id = `msg_${randomBytes(12).toString('hex')}`;
		const timestamp = Math.floor(Date.now() / 1000);
		const body = JSON.stringify({
			id,
			type: 'booking.created',
			createdAt: new Date().toISOString(),
			data: { bookingId: `bk_bench_${i}`, status: 'CONFIRMED', note: 'x'.repeat(400) },
		});
		return {
			body,
			headers: {
				'content-type': 'application/json',
				'webhook-id': id,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': signStandardWebhook(secret, id, timestamp, body),
			},
		};
	});
}

/** Posts every delivery, CONCURRENCY at a time; returns the seconds taken and the statuses. */
async function fire(url: string, batch: Delivery[]) {
	const statuses: number[] = [];
	let next = 0;
	const start = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < batch.length) {
				const delivery = batch[next++];
				const response = await fetch(url, { method: 'POST', ...delivery });
				await response.arrayBuffer();
				statuses.push(response.status);
			}
		}),
	);
	return { seconds: Number(process.hrtime.bigint() - start) / 1e9, statuses };
}

/** Executions of a workflow, counted once every one has ended and the count holds. */
async function settledCount(client: N8nClient, workflowId: string, atLeast: number) {
	let previous = -1;
	return await waitFor(
		`${atLeast} executions of ${workflowId}`,
		async () => {
			let count = 0;
			let running = 0;
			let cursor: string | undefined;
			do {
				const query = new URLSearchParams({ workflowId, limit: '250' });
				if (cursor) query.set('cursor', cursor);
				const page = await client.publicApi<{
					data: Array<{ status: string; stoppedAt: string | null }>;
					nextCursor?: string | null;
				}>('GET', `/executions?${query}`);
				count += page.body.data.length;
				running += page.body.data.filter((e) => !e.stoppedAt).length;
				cursor = page.body.nextCursor ?? undefined;
			} while (cursor);
			const settled = count >= atLeast && running === 0 && count === previous;
			previous = count;
			return settled ? count : undefined;
		},
		{ timeoutMs: 180_000, intervalMs: 500 },
	);
}

/**
 * n8n 2.41.1 gives every webhook trigger but its own Webhook node an expression isolate for the
 * webhook phase, created eagerly per delivery (live-webhooks webhookPhaseNeedsIsolate): a cost no
 * node can avoid. With lazy acquisition n8n creates one only if an expression is evaluated, so that
 * run compares what the nodes themselves cost; the bar applies there.
 */
const CONFIGURATIONS = [
	{ name: "n8n's defaults", env: {}, bar: false },
	{
		name: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
		bar: true,
	},
] as const;

interface Measured {
	rates: Record<Side, number[]>;
	sent: Record<Side, number>;
	executions: Record<Side, number>;
	problems: string[];
}

export async function run(): Promise<string> {
	installCleanupHooks();
	const measured: Measured[] = [];
	for (const configuration of CONFIGURATIONS) measured.push(await measure(configuration.env));

	const problems: string[] = [];
	const rows: string[] = [];
	const ratios: string[] = [];
	CONFIGURATIONS.forEach((configuration, i) => {
		const { rates, sent, executions } = measured[i];
		const rate = (side: Side) => median(rates[side]);
		const ratio = median(rates.trigger.map((trigger, pair) => trigger / rates.webhook[pair]));
		problems.push(...measured[i].problems.map((problem) => `${configuration.name}: ${problem}`));
		if (configuration.bar && ratio < MIN_RATIO) {
			problems.push(
				`${configuration.name}: the trigger accepts ${ratio.toFixed(2)}× the Webhook node's rate (bar ${MIN_RATIO})`,
			);
		}
		for (const side of ['trigger', 'webhook'] as const) {
			const perRound = rates[side].map((r) => r.toFixed(1)).join(', ');
			rows.push(
				`| ${configuration.name} | ${SIDES[side].label} | ${rate(side).toFixed(1)} | ${perRound} | ${sent[side]} | ${executions[side]} |`,
			);
		}
		const bar = configuration.bar ? ` (bar: ${MIN_RATIO})` : ' (no bar: see above)';
		ratios.push(`- ${configuration.name}: **${ratio.toFixed(2)}**${bar}`);
	});
	const section = [
		'### Trigger throughput in real n8n',
		'',
		'n8n 2.41.1 (regular mode, SQLite), one workflow per side holding only the trigger. ' +
			`${ROUNDS} timed rounds of ${PER_ROUND} signed Standard Webhooks deliveries per side at ` +
			`concurrency ${CONCURRENCY}, after a ${WARM_UP}-delivery warm-up, alternating sides; each ` +
			"round starts once the previous round's executions have ended. Accepted/s is 200 answers " +
			"per second of the round; the ratio is the median over pairs of the two sides' rounds run " +
			"back to back. Run once with n8n's defaults and once with lazy expression " +
			'isolates: with its defaults n8n creates an isolate per delivery for every webhook trigger ' +
			'except its own Webhook node, before the trigger runs.',
		'',
		'| n8n configuration | Receiver | accepted/s (median) | per round | deliveries | executions |',
		'|---|---|---:|---|---:|---:|',
		...rows,
		'',
		'Ratio, trigger ÷ Webhook node (median of per-pair ratios):',
		'',
		...ratios,
		'',
	].join('\n');
	if (problems.length) throw new BenchFailure(section, problems);
	return section;
}

/** One n8n with both workflows active, the rounds fired, and the executions counted. */
async function measure(n8nEnv: Record<string, string>): Promise<Measured> {
	const workDir = mkdtempSync(join(tmpdir(), 'partner-logistics-bench-trigger-'));
	const secret = newSigningSecret();
	const stack = await startStack({
		workDir,
		owner: BENCH_OWNER,
		fixtures: (sandbox) => ({
			credentials: credentialsFor(sandbox, secret, ['full']),
			workflows: workflows(),
			activate: Object.values(SIDES).map((side) => side.workflowId),
		}),
		n8nEnv,
	});
	try {
		const base = stack.n8n.baseUrl;
		const urls: Record<Side, string> = {
			trigger: `${base}/webhook/${TRIGGER_WEBHOOK_ID}/partner-logistics`,
			webhook: `${base}/webhook/${WEBHOOK_PATH}`,
		};
		for (const url of Object.values(urls)) {
			await waitFor(`${url} to register`, async () =>
				(await isRegistered(url)) ? true : undefined,
			);
		}

		const sent: Record<Side, number> = { trigger: 0, webhook: 0 };
		const rates: Record<Side, number[]> = { trigger: [], webhook: [] };
		const problems: string[] = [];
		const round = async (side: Side, count: number, timedRound: boolean) => {
			const { seconds, statuses } = await fire(urls[side], deliveries(secret, count));
			sent[side] += count;
			const refused = statuses.filter((status) => status !== 200);
			if (refused.length) {
				problems.push(`${side}: ${refused.length} deliveries answered ${refused[0]}`);
			}
			if (timedRound) rates[side].push(count / seconds);
			// The next round starts on an idle n8n: executions of this one are not the next one's load.
			await settledCount(stack.client, SIDES[side].workflowId, sent[side]);
		};

		for (const side of ['trigger', 'webhook'] as const) await round(side, WARM_UP, false);
		for (let i = 0; i < ROUNDS; i++) {
			const order: Side[] = i % 2 === 0 ? ['trigger', 'webhook'] : ['webhook', 'trigger'];
			for (const side of order) await round(side, PER_ROUND, true);
		}

		const executions: Record<Side, number> = { trigger: 0, webhook: 0 };
		for (const side of ['trigger', 'webhook'] as const) {
			executions[side] = await settledCount(stack.client, SIDES[side].workflowId, sent[side]);
			if (executions[side] !== sent[side]) {
				problems.push(`${side}: ${executions[side]} executions for ${sent[side]} deliveries`);
			}
		}
		return { rates, sent, executions, problems };
	} finally {
		await stack.stop();
		rmSync(workDir, { recursive: true, force: true });
	}
}

/** n8n answers a GET to a registered POST-only webhook with a 404 naming the POST method. */
async function isRegistered(url: string): Promise<boolean> {
	const response = await fetch(url, { method: 'GET' });
	const text = await response.text();
	return /POST/.test(text);
}

runWhenMain(module, run);
