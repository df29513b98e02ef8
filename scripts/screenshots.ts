// npm run screenshots: pictures of the playground for the README, taken with Debian's Chromium
// through playwright-core (never a downloaded browser). Uses a running playground (npm run dev)
// if there is one, else starts one for the duration and stops it afterwards.
import { createInterface } from 'node:readline';
import { join } from 'node:path';

import { chromium, type Page } from 'playwright-core';

import { WORKFLOW_IDS } from '../test/e2e/lib/fixtures';
import { requestJson } from '../test/e2e/lib/http';
import { repoRoot } from '../test/e2e/lib/paths';
import {
	installCleanupHooks,
	type Started,
	startGuarded,
	stopStarted,
} from '../test/e2e/lib/processes';
import { PLAYGROUND_OWNER, playgroundPorts } from './playground';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const base = `http://127.0.0.1:${playgroundPorts.n8n}`;
const docs = join(repoRoot, 'docs');

async function playgroundRunning(): Promise<boolean> {
	try {
		const response = await requestJson<{ status?: string }>(`${base}/healthz/readiness`);
		return response.body?.status === 'ok';
	} catch {
		return false;
	}
}

/** Starts `scripts/dev.ts` and resolves once it prints that the playground is ready. */
function startPlayground(): Promise<Started> {
	const dev = startGuarded(
		'playground',
		process.execPath,
		['-r', 'ts-node/register/transpile-only', 'scripts/dev.ts'],
		{
			cwd: repoRoot,
			env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	return new Promise((resolveStarted, reject) => {
		const lines = createInterface({ input: dev.child.stdout! });
		lines.on('line', (line) => {
			console.log(line);
			if (line.includes('playground is ready')) resolveStarted(dev);
		});
		void dev.exited.then((code) => reject(new Error(`the playground exited (${code})`)));
	});
}

async function signIn(page: Page) {
	await page.goto(`${base}/signin`);
	await page
		.locator('input[type="email"], input[name="emailOrLdapLoginId"]')
		.first()
		.fill(PLAYGROUND_OWNER.email);
	await page.locator('input[type="password"]').first().fill(PLAYGROUND_OWNER.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** The node panel with Partner Logistics chosen: every operation, grouped by resource. */
async function operationPicker(page: Page) {
	// Tall enough for all 24 actions; the picture is the panel itself.
	await page.setViewportSize({ width: 1440, height: 1700 });
	await page.goto(`${base}/workflow/${WORKFLOW_IDS.directBooking}`);
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	await page.keyboard.type('Partner Logistics');
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Partner Logistics' })
		.first()
		.waitFor();
	// The action node and its trigger share one entry; Enter opens its list of actions.
	await page.keyboard.press('Enter');
	await page.getByText('Create a booking').waitFor();
	await page.waitForTimeout(800);
	await page
		.locator('[data-test-id="node-creator"]')
		.screenshot({ path: join(docs, 'operation-picker.png') });
}

/** The direct booking sample after "Execute workflow": every node green, items counted. */
async function finishedBooking(page: Page) {
	await page.setViewportSize({ width: 1440, height: 900 });
	await page.goto(`${base}/workflow/${WORKFLOW_IDS.directBooking}`);
	await page.locator('[data-test-id="zoom-to-fit"]').click();
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	// Every node but the sticky note shows a green tick once the run is over.
	const nodes = await page.locator('[data-test-id="canvas-node"]').count();
	const success = '[data-test-id="canvas-node-status-success"]';
	await page.waitForFunction(
		`document.querySelectorAll('${success}').length >= ${nodes - 1}`,
		undefined,
		{ timeout: 60_000 },
	);
	await page.getByText('Workflow executed successfully').waitFor();
	await page.waitForTimeout(800);
	await page.screenshot({ path: join(docs, 'booking-workflow.png') });

	// The last step's output: the payment the booking was paid with, now SUCCEEDED.
	await page.locator('[data-test-id="canvas-node"]', { hasText: 'Get payment status' }).dblclick();
	await page.getByText('SUCCEEDED').first().waitFor();
	await page.waitForTimeout(800);
	await page.screenshot({ path: join(docs, 'booking-payment-output.png') });
}

async function main() {
	installCleanupHooks();
	let playground: Started | undefined;
	if (!(await playgroundRunning())) {
		console.log('screenshots: no playground on 5678, starting one (npm run dev)…');
		playground = await startPlayground();
	}
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage({
			viewport: { width: 1440, height: 900 },
			deviceScaleFactor: 1,
		});
		await signIn(page);
		await operationPicker(page);
		await finishedBooking(page);
		console.log(
			'screenshots: saved docs/operation-picker.png, booking-workflow.png, booking-payment-output.png',
		);
	} finally {
		await browser.close();
		if (playground) await stopStarted(playground, 20_000);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
