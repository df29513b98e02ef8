// npm run dev: the local playground. Builds the package, installs the pinned n8n if missing,
// starts the sandbox Partner API and n8n on 127.0.0.1:5678 with the package installed, an owner,
// a credential for the sandbox and the sample workflows, prints where to go, and stops both on
// Ctrl-C. State lives in .n8n-playground/ (gitignored); `npm run dev -- --reset` starts afresh.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	ANSWER_BOUNDS_WORKFLOW_IDS,
	credentialName,
	credentialsFor,
	dryRunWebhookUrl,
	loadWorkflows,
	mcpPreviewUrl,
	mcpServerUrl,
	newSigningSecret,
	sandboxCredential,
	templateWorkflow,
	TRIGGER_WORKFLOW_IDS,
	triggerUrl,
	WORKFLOW_IDS,
} from '../test/e2e/lib/fixtures';
import { seedSampleRecords } from '../test/e2e/lib/watches';
import { installRuntimeScript, repoRoot } from '../test/e2e/lib/paths';
import { portInUse } from '../test/e2e/lib/ports';
import { installCleanupHooks, stopAll } from '../test/e2e/lib/processes';
import { startStack } from '../test/e2e/lib/stack';
import { PLAYGROUND_OWNER, playgroundDir, playgroundPorts } from './playground';

/**
 * Where the printed link lands. n8n's own start page after signing in can be another view (its
 * chat/assistant page when that module is on); the workflow list is where the samples are.
 */
const WORKFLOWS_PAGE = '/home/workflows';

/**
 * The playground's own sample, not one of the suite's workflows (test/e2e/workflows): the docs'
 * template of money tools behind n8n's human review (docs/ai-agents.md). It needs a chat model
 * and an SMTP account the playground does not have, so no spec runs it; it is there to be opened.
 */
const MONEY_TOOLS_REVIEW = { id: 'plWfMoneyReview1', file: 'money-tools-human-review.json' };

/** Settings kept across restarts, so stored credentials stay decryptable and links stay valid. */
interface PlaygroundState {
	encryptionKey: string;
	adminToken: string;
	signingSecret: string;
	keys: { full: string; noSupport: string; readOnly: string; otherOrg: string };
}

function loadState(file: string): PlaygroundState {
	if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as PlaygroundState;
	const hex = () => randomBytes(12).toString('hex');
	const state: PlaygroundState = {
		encryptionKey: randomBytes(24).toString('hex'),
		adminToken: `sbx_admin_${hex()}`,
		signingSecret: newSigningSecret(),
		keys: {
			full: `sbx_a_full_${hex()}`,
			noSupport: `sbx_a_nosupport_${hex()}`,
			readOnly: `sbx_a_readonly_${hex()}`,
			otherOrg: `sbx_b_full_${hex()}`,
		},
	};
	writeFileSync(file, `${JSON.stringify(state, null, '\t')}\n`, { mode: 0o600 });
	return state;
}

/**
 * Runs a step of the setup. `show`: its output lines are passed on (the runtime installer reports
 * its own progress); otherwise they are kept and printed only if the step fails (tsc and gulp
 * print nothing useful when they succeed).
 */
function run(command: string, args: string[], progress: Progress, show: boolean): Promise<void> {
	// A step that reports its own progress (the runtime installer's heartbeat) needs none of ours.
	progress.ownHeartbeat = !show;
	return new Promise((resolveRun, reject) => {
		const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
		const kept: string[] = [];
		for (const stream of [child.stdout, child.stderr]) {
			createInterface({ input: stream }).on('line', (line) => {
				if (show) progress.pass(line);
				else kept.push(line);
			});
		}
		child.on('error', reject);
		child.on('close', (code, signal) => {
			progress.ownHeartbeat = true;
			if (code === 0) return resolveRun();
			for (const line of kept) console.error(line);
			reject(new Error(`${command} ${args.join(' ')} failed (${code ?? signal})`));
		});
	});
}

/**
 * The playground's voice: every line says how long the run has taken, and when a step stays quiet
 * for 10 s a line says it is still going, so the first run (minutes) never looks stuck.
 */
class Progress {
	private readonly started = Date.now();
	private lastLine = Date.now();
	private phase = '';
	ownHeartbeat = true;
	private readonly timer = setInterval(() => this.heartbeat(), 1000);

	seconds(): number {
		return Math.round((Date.now() - this.started) / 1000);
	}

	say(phase: string): void {
		this.phase = phase.replace(/…$/, '');
		this.print(`playground [${String(this.seconds()).padStart(3)} s] ${phase}`);
	}

	/** A line of a child step's own progress, shown as it is. */
	pass(line: string): void {
		this.print(line);
	}

	stop(): void {
		clearInterval(this.timer);
	}

	private heartbeat(): void {
		if (this.ownHeartbeat && this.phase && Date.now() - this.lastLine >= 10_000) {
			this.print(`playground [${String(this.seconds()).padStart(3)} s]   still ${this.phase}…`);
		}
	}

	private print(line: string): void {
		this.lastLine = Date.now();
		console.log(line);
	}
}

async function main() {
	const progress = new Progress();
	let stopping = false;
	installCleanupHooks({
		onSignal: () => {
			stopping = true;
			console.log('\nStopping n8n and the sandbox…');
		},
		afterStop: () => console.log('Stopped.'),
		signalExitCode: 0,
	});
	const say = (line: string) => progress.say(line);

	if (process.argv.includes('--reset')) {
		say(`removing ${playgroundDir}`);
		rmSync(playgroundDir, { recursive: true, force: true });
	}
	for (const [what, port] of Object.entries(playgroundPorts)) {
		if (await portInUse(port)) {
			throw new Error(
				`Port ${port} (${what}) is already in use on 127.0.0.1. Stop whatever uses it (another n8n or playground?) and try again.`,
			);
		}
	}

	say('Building the package (npm run build)…');
	await run('npm', ['run', '--silent', 'build'], progress, false);
	say('Checking the n8n runtime (the first time it installs: 5 to 8 minutes more)…');
	await run('bash', [installRuntimeScript], progress, true);

	mkdirSync(playgroundDir, { recursive: true });
	const state = loadState(join(playgroundDir, 'playground.json'));
	const firstRun = !existsSync(join(playgroundDir, 'n8n/.n8n/database.sqlite'));
	const stack = await startStack({
		workDir: playgroundDir,
		n8nPort: playgroundPorts.n8n,
		sandbox: { port: playgroundPorts.sandbox, adminToken: state.adminToken, keys: state.keys },
		encryptionKey: state.encryptionKey,
		owner: PLAYGROUND_OWNER,
		// The credentials are imported on every start (same ids, same values); the sample workflows
		// only on the first, so changes made in the editor survive a restart.
		// One credential only: n8n preselects a credential of the type for every new node, and with
		// the limited key beside it a new node could get that one. The limited key is printed.
		// The records the GO_BULK and HAUL watch samples watch are made first, on every start: the
		// sandbox starts empty, and made first they get the same IDs each time.
		fixtures: async (sandbox) => {
			const watched = await seedSampleRecords(sandbox);
			return {
				credentials: credentialsFor(sandbox, state.signingSecret, ['full']),
				workflows: firstRun
					? [
							...loadWorkflows(sandbox, undefined, watched),
							templateWorkflow(MONEY_TOOLS_REVIEW.file, MONEY_TOOLS_REVIEW.id, {
								partnerLogisticsApi: sandboxCredential,
							}),
						]
					: [],
				activate: firstRun ? TRIGGER_WORKFLOW_IDS : [],
			};
		},
		log: say,
	});
	if (stopping) return;

	progress.stop();
	const base = stack.n8n.baseUrl;
	const { info } = stack.sandbox;
	const webhookCall = JSON.stringify({
		url: triggerUrl(base),
		secret: state.signingSecret,
		type: 'booking.created',
		data: { bookingId: 'bk_demo' },
	});
	const dryRunBatch = JSON.stringify({
		dryRun: true,
		step: 'quote',
		rows: [
			{
				serviceType: 'CLICK',
				pickupAddress: '12 Allen Avenue, Ikeja, Lagos',
				pickupLatitude: 6.6005,
				pickupLongitude: 3.3541,
				dropoffAddress: '5 Admiralty Way, Lekki, Lagos',
				dropoffLatitude: 6.4433,
				dropoffLongitude: 3.4702,
			},
		],
	});
	const samples: Array<[string, string]> = [
		[WORKFLOW_IDS.directBooking, 'quote, book and pay a delivery (start here)'],
		[WORKFLOW_IDS.hubs, 'list hubs'],
		[WORKFLOW_IDS.goBulk, 'GO_BULK quotation paid on credit'],
		[WORKFLOW_IDS.haul, 'HAUL quotation to truck tracking'],
		[WORKFLOW_IDS.supportCase, 'support case lifecycle'],
		[WORKFLOW_IDS.bookingRetry, 'book safely with Retry On Fail'],
		[WORKFLOW_IDS.orderBatch, 'quote and book a batch of orders'],
		[WORKFLOW_IDS.executionRetry, 'retry a failed batch: nothing booked twice'],
		[WORKFLOW_IDS.subflowOrders, 'retry a batch booked by a sub-workflow: nothing booked twice'],
		[WORKFLOW_IDS.subflowBook, 'the sub-workflow that books (active)'],
		[WORKFLOW_IDS.payBookings, 'pay the bookings listed: run it twice, pay once'],
		[WORKFLOW_IDS.dryRunBatch, 'preview a batch with Dry Run, then send it (active)'],
		[WORKFLOW_IDS.multiStop, 'multi-stop CLICK delivery'],
		[WORKFLOW_IDS.bookingTypedIn, 'book with the route typed in'],
		[WORKFLOW_IDS.quotationAnswers, 'accept credit terms or decline a quotation'],
		[WORKFLOW_IDS.webhookEvents, 'receive signed events (active)'],
		[WORKFLOW_IDS.eventsStripe, 'receive Stripe-style signed events (active)'],
		[WORKFLOW_IDS.eventsHmac, 'receive HMAC-signed events (active)'],
		[WORKFLOW_IDS.mcpTools, 'tools for AI agents: an MCP server (active)'],
		[WORKFLOW_IDS.mcpPreview, 'preview tools for AI agents: Dry Run on (active)'],
		[
			MONEY_TOOLS_REVIEW.id,
			'an AI agent whose bookings and payments wait for approval (your chat model and SMTP)',
		],
		[
			WORKFLOW_IDS.supportCaseWatch,
			'watch support cases by polling (publish it, then open a case)',
		],
		[
			WORKFLOW_IDS.goBulkWatch,
			'GO_BULK: wait for the quotation, then pay (publish it, then execute it)',
		],
		[
			WORKFLOW_IDS.haulWatch,
			'HAUL: quotation accepted, trip and truck followed (publish it, then execute it)',
		],
		[ANSWER_BOUNDS_WORKFLOW_IDS.quoteTimeout2s, 'a quote with a 2 s Timeout and one retry'],
		[
			ANSWER_BOUNDS_WORKFLOW_IDS.listLimits,
			'a Limit from a sheet: bad rows set aside, nothing sent for them',
		],
		[ANSWER_BOUNDS_WORKFLOW_IDS.listEveryCase, 'list every support case (Return All)'],
	];
	// Everything a person types or pastes while trying the package, in the order they need it.
	console.log(`
Partner Logistics playground is ready (${progress.seconds()} s).

  Open      ${base}${WORKFLOWS_PAGE}
  Log in    ${PLAYGROUND_OWNER.email}  /  ${PLAYGROUND_OWNER.password}

  Sample workflows (open one, then click "Execute workflow"):
${samples.map(([id, what]) => `    ${base}/workflow/${id}   ${what}`).join('\n')}

  Sandbox Partner API (the credential is already saved in n8n):
    Base URL            ${info.url}
    API key, full       ${info.keys.full}   (in the credential "${credentialName.full}")
    API key, limited    ${info.keys.noSupport}   (no support:create / support:read: support cases get 403)
    API key, read only  ${info.keys.readOnly}   (GETs and support:read only)
    Saved card IDs      ${info.savedCards.enabled} (charges work), ${info.savedCards.notEnabled} (not enabled for API charges: refused)
    Signing secret      ${state.signingSecret}   (the trigger's Webhook Signing Secret)

  MCP server of the AI tools sample (Streamable HTTP, no authentication; list hubs, quote, book):
    ${mcpServerUrl(base)}
    e.g. npx @modelcontextprotocol/inspector, transport "Streamable HTTP", that URL, Connect
    ${mcpPreviewUrl(base)}   (the preview tools sample: Dry Run on, nothing is sent)

  Preview a batch with Dry Run (nothing sent; "dryRun": false sends it), then see it in Executions:
    curl -s ${dryRunWebhookUrl(base)} -H 'content-type: application/json' \\
      -d '${dryRunBatch}'

  Send a signed test event to the active trigger workflow:
    curl -s ${info.origin}/__admin/webhooks/send -H 'x-sandbox-admin-token: ${info.adminToken}' \\
      -H 'content-type: application/json' -d '${webhookCall}'

  Logs: ${join(playgroundDir, 'logs')}  (sandbox: ${join(playgroundDir, 'sandbox.log')})
  Stop: press Ctrl-C here. State is kept for the next \`npm run dev\`; \`npm run dev -- --reset\` starts afresh.
`);

	// Either server dying ends the playground: a half-running one only confuses.
	const ended = await Promise.race([
		stack.n8n.process.exited.then((code) => `n8n exited (code ${code})`),
		stack.sandbox.process.exited.then((code) => `the sandbox exited (code ${code})`),
	]);
	if (stopping) return;
	console.error(`playground: ${ended}; stopping. See ${join(playgroundDir, 'logs')}.`);
	await stopAll();
	process.exit(1);
}

main().catch(async (error: unknown) => {
	console.error(`playground: ${error instanceof Error ? error.message : String(error)}`);
	await stopAll();
	process.exit(1);
});
