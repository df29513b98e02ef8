// npm run dev: the local playground. Builds the package, installs the pinned n8n if missing,
// starts the sandbox Partner API and n8n on 127.0.0.1:5678 with the package installed, an owner,
// a credential for the sandbox and the sample workflows, prints where to go, and stops both on
// Ctrl-C. State lives in .n8n-playground/ (gitignored); `npm run dev -- --reset` starts afresh.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	credentialsFor,
	loadWorkflows,
	newSigningSecret,
	TRIGGER_WORKFLOW_IDS,
	triggerUrl,
	WORKFLOW_IDS,
} from '../test/e2e/lib/fixtures';
import { installRuntimeScript, repoRoot } from '../test/e2e/lib/paths';
import { portInUse } from '../test/e2e/lib/ports';
import { installCleanupHooks, stopAll } from '../test/e2e/lib/processes';
import { startStack } from '../test/e2e/lib/stack';
import { PLAYGROUND_OWNER, playgroundDir, playgroundPorts } from './playground';

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

function run(command: string, args: string[]): Promise<void> {
	return new Promise((resolveRun, reject) => {
		const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code, signal) =>
			code === 0
				? resolveRun()
				: reject(new Error(`${command} ${args.join(' ')} failed (${code ?? signal})`)),
		);
	});
}

async function main() {
	const started = Date.now();
	let stopping = false;
	installCleanupHooks({
		onSignal: () => {
			stopping = true;
			console.log('\nStopping n8n and the sandbox…');
		},
		afterStop: () => console.log('Stopped.'),
		signalExitCode: 0,
	});
	const say = (line: string) => console.log(`playground: ${line}`);

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

	say('building the package (npm run build)…');
	await run('npm', ['run', '--silent', 'build']);
	say('checking the n8n runtime (first time: about 4 minutes)…');
	await run('bash', [installRuntimeScript]);

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
		fixtures: (sandbox) => ({
			credentials: credentialsFor(sandbox, state.signingSecret),
			workflows: firstRun ? loadWorkflows(sandbox) : [],
			activate: firstRun ? TRIGGER_WORKFLOW_IDS : [],
		}),
		log: say,
	});
	if (stopping) return;

	const base = stack.n8n.baseUrl;
	const { info } = stack.sandbox;
	const seconds = Math.round((Date.now() - started) / 1000);
	const webhookCall = JSON.stringify({
		url: triggerUrl(base),
		secret: state.signingSecret,
		type: 'booking.created',
		data: { bookingId: 'bk_demo' },
	});
	console.log(`
Partner Logistics playground is ready (${seconds} s).

  Open   ${base}
  Log in ${PLAYGROUND_OWNER.email}  /  ${PLAYGROUND_OWNER.password}

  Sample workflows (open one, then click "Execute workflow"):
    ${base}/workflow/${WORKFLOW_IDS.directBooking}   quote, book and pay a delivery
    ${base}/workflow/${WORKFLOW_IDS.hubs}   list hubs
    ${base}/workflow/${WORKFLOW_IDS.goBulk}   GO_BULK quotation paid on credit
    ${base}/workflow/${WORKFLOW_IDS.haul}   HAUL quotation to truck tracking
    ${base}/workflow/${WORKFLOW_IDS.supportCase}   support case lifecycle
    ${base}/workflow/${WORKFLOW_IDS.bookingRetry}   book safely with Retry On Fail
    ${base}/workflow/${WORKFLOW_IDS.orderBatch}   quote and book a batch of orders
    ${base}/workflow/${WORKFLOW_IDS.multiStop}   multi-stop CLICK delivery
    ${base}/workflow/${WORKFLOW_IDS.bookingTypedIn}   book with the route typed in
    ${base}/workflow/${WORKFLOW_IDS.quotationAnswers}   accept credit terms or decline a quotation
    ${base}/workflow/${WORKFLOW_IDS.webhookEvents}   receive signed events (active)
    ${base}/workflow/${WORKFLOW_IDS.eventsStripe}   receive Stripe-style signed events (active)
    ${base}/workflow/${WORKFLOW_IDS.eventsHmac}   receive HMAC-signed events (active)

  Credential "Partner Logistics sandbox" points at the sandbox API ${info.url}
  Send a signed test event to the active trigger workflow:
    curl -s ${info.origin}/__admin/webhooks/send -H 'x-sandbox-admin-token: ${info.adminToken}' \\
      -H 'content-type: application/json' -d '${webhookCall}'

  Logs: ${join(playgroundDir, 'logs')}  (sandbox: ${join(playgroundDir, 'sandbox.log')})
  Press Ctrl-C to stop n8n and the sandbox.
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
