// npm run screenshots: pictures of the playground for the README, taken with Debian's Chromium
// through playwright-core (never a downloaded browser). Uses a running playground (npm run dev)
// if there is one, else starts one for the duration and stops it afterwards.
// `npm run screenshots -- node-creator-entry trigger-production-url` takes only the named ones.
// Nothing is saved in n8n: nodes added for a picture stay in the unsaved editor and are dropped.
import { createInterface } from 'node:readline';
import { join } from 'node:path';

import { chromium, type Page } from 'playwright-core';

import { TRIGGERS, WORKFLOW_IDS } from '../test/e2e/lib/fixtures';
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
	// Wait for n8n's answer, not just a new URL: a refused login (n8n limits attempts per minute)
	// would otherwise show up later as missing buttons on a sign-in page.
	const [login] = await Promise.all([
		page.waitForResponse((response) => response.url().endsWith('/rest/login')),
		page.locator('[data-test-id="form-submit-button"]').click(),
	]);
	if (!login.ok())
		throw new Error(`n8n refused the login: ${login.status()} ${await login.text()}`);
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** Opens a sample workflow in the editor, its canvas fitted to the window. */
async function openWorkflow(page: Page, id: string) {
	await page.goto(`${base}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.locator('[data-test-id="zoom-to-fit"]').click();
}

/** Searches the node panel for the package, as someone who just installed it would. */
async function searchNodePanel(page: Page) {
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	await typePackageName(page);
}

/** Types the package's name into the open node panel and waits for its entry. */
async function typePackageName(page: Page) {
	await page.keyboard.type('Partner Logistics');
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Partner Logistics' })
		.first()
		.waitFor();
}

/**
 * Runs `shoot` in a new, empty workflow and deletes that workflow afterwards: n8n saves every
 * change on its own, so a node added for a picture must never land in a sample workflow.
 */
async function inScratchWorkflow(page: Page, shoot: () => Promise<void>) {
	await page.goto(`${base}/workflow/new`);
	await page.waitForURL(/\/workflow\/(?!new)[^/?]+/, { timeout: 60_000 });
	const id = new URL(page.url()).pathname.split('/').pop()!;
	try {
		await shoot();
	} finally {
		// The editor's own REST calls carry its browser id; n8n refuses them without it.
		await page.evaluate(async (workflowId) => {
			const { localStorage } = globalThis as unknown as {
				localStorage: { getItem(key: string): string | null };
			};
			const headers = { 'browser-id': localStorage.getItem('n8n-browserId') ?? '' };
			await fetch(`/rest/workflows/${workflowId}/archive`, { method: 'POST', headers });
			await fetch(`/rest/workflows/${workflowId}`, { method: 'DELETE', headers });
		}, id);
	}
}

/** Adds Partner Logistics › Quote › Create from the node panel; n8n opens its panel. */
async function addQuoteCreate(page: Page) {
	await page.locator('[data-test-id="canvas-add-button"]').click();
	await typePackageName(page);
	await page.keyboard.press('Enter');
	// On an empty canvas n8n shows the package's triggers first and folds its actions away.
	await page.getByText(/^Actions \(\d+\)$/).click();
	await page.getByText('Create a quote', { exact: true }).click();
	await page.locator('[data-test-id="parameter-input-serviceType"]').waitFor();
}

/** Picks an option of a dropdown parameter by its label. */
async function choose(page: Page, parameter: string, option: string) {
	await page.locator(`[data-test-id="parameter-input-${parameter}"]`).click();
	await page.locator('.el-select-dropdown__item:visible', { hasText: option }).first().click();
}

const settle = (page: Page) => page.waitForTimeout(800);

/** The node panel's entry for the package, with the description n8n shows under its name. */
async function nodeCreatorEntry(page: Page) {
	await openWorkflow(page, WORKFLOW_IDS.hubs);
	await searchNodePanel(page);
	await settle(page);
	const panel = await page.locator('[data-test-id="node-creator"]').boundingBox();
	if (!panel) throw new Error('node panel not visible');
	await page.screenshot({
		path: join(docs, 'node-creator-entry.png'),
		clip: { x: panel.x, y: panel.y, width: panel.width, height: 200 },
	});
}

/** The node panel with Partner Logistics chosen: every operation, grouped by resource. */
async function operationPicker(page: Page) {
	// Tall enough for all 24 actions; the picture is the panel itself.
	await page.setViewportSize({ width: 1440, height: 1700 });
	await openWorkflow(page, WORKFLOW_IDS.directBooking);
	await searchNodePanel(page);
	// The action node and its trigger share one entry; Enter opens its list of actions.
	await page.keyboard.press('Enter');
	await page.getByText('Create a booking').waitFor();
	await settle(page);
	await page
		.locator('[data-test-id="node-creator"]')
		.screenshot({ path: join(docs, 'operation-picker.png') });
}

/** Partner Logistics nodes on the canvas: the subtitle under each name says what it does. */
async function canvasSubtitles(page: Page) {
	await openWorkflow(page, WORKFLOW_IDS.directBooking);
	await settle(page);
	const nodes = page.locator('[data-test-id="canvas-node"]', {
		hasText: /Get hubs|Quote|Book|Pay/,
	});
	const boxes = (await Promise.all((await nodes.all()).map((node) => node.boundingBox()))).filter(
		(box) => box !== null,
	);
	// The nodes' labels sit below their boxes: leave room for name and subtitle.
	const left = Math.min(...boxes.map((box) => box.x)) - 60;
	const top = Math.min(...boxes.map((box) => box.y)) - 20;
	const right = Math.max(...boxes.map((box) => box.x + box.width)) + 60;
	const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + 70;
	await page.screenshot({
		path: join(docs, 'canvas-subtitles.png'),
		clip: { x: left, y: top, width: right - left, height: bottom - top },
	});
}

/** Quote › Create as it first opens: the route form's fields, nothing filled in yet. */
async function quoteCreateEmpty(page: Page) {
	await inScratchWorkflow(page, async () => {
		await addQuoteCreate(page);
		await settle(page);
		await page
			.locator('[data-test-id="ndv"]')
			.screenshot({ path: join(docs, 'quote-create-empty.png') });
	});
}

/** GO_LIGHT's Pickup Method dropdown: the ways a route can start, each with its explanation. */
async function routeMethodOptions(page: Page) {
	await inScratchWorkflow(page, async () => {
		await addQuoteCreate(page);
		await choose(page, 'serviceType', 'GO_LIGHT');
		await page.locator('[data-test-id="parameter-input-pickupMethod"]').click();
		// Its two options; waiting for the second means the list is open and complete.
		await page.locator('.el-select-dropdown__item:visible').nth(1).waitFor();
		await settle(page);
		await page
			.locator('[data-test-id="ndv"]')
			.screenshot({ path: join(docs, 'route-method-options.png') });
	});
}

/** The order batch sample run: the order that fails the checks leaves on the error output. */
async function itemError(page: Page) {
	await openWorkflow(page, WORKFLOW_IDS.orderBatch);
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	await page.getByText('Workflow executed successfully').waitFor({ timeout: 60_000 });
	await page.locator('.el-notification__closeBtn').first().click();
	await page.locator('[data-test-id="canvas-node"]', { hasText: 'Quote each order' }).dblclick();
	const output = page.locator('[data-test-id="output-panel"]');
	await output.getByText(/^Error Branch/).click();
	await output
		.getByText(/must be a number between/)
		.first()
		.waitFor();
	await settle(page);
	await page.locator('[data-test-id="ndv"]').screenshot({ path: join(docs, 'item-error.png') });
}

/** The trigger's panel with its Production URL shown, the address to paste into the portal. */
async function triggerProductionUrl(page: Page) {
	await openWorkflow(page, WORKFLOW_IDS.webhookEvents);
	await page
		.locator('[data-test-id="canvas-node"]', { hasText: 'Partner Logistics Trigger' })
		.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	// n8n folds the webhook URLs away and shows the Test URL first.
	await ndv.getByText('Webhook URLs', { exact: true }).click();
	await ndv.getByText('Production URL', { exact: true }).click();
	await ndv.getByText(TRIGGERS.standardWebhooks.webhookId).first().waitFor();
	await settle(page);
	await ndv.screenshot({ path: join(docs, 'trigger-production-url.png') });
}

/** The direct booking sample after "Execute workflow": every node green, items counted. */
async function finishedBooking(page: Page) {
	await openWorkflow(page, WORKFLOW_IDS.directBooking);
	// Every node but the sticky note shows a green tick once the run is over.
	const nodes = await page.locator('[data-test-id="canvas-node"]').count();
	await executeWorkflow(page, nodes - 1);
	await page.getByText('Workflow executed successfully').waitFor();
	await page.waitForTimeout(800);
	await page.screenshot({ path: join(docs, 'booking-workflow.png') });

	// The last step's output: the payment the booking was paid with, now SUCCEEDED.
	await page.locator('[data-test-id="canvas-node"]', { hasText: 'Get payment status' }).dblclick();
	await page.getByText('SUCCEEDED').first().waitFor();
	await page.waitForTimeout(800);
	await page.screenshot({ path: join(docs, 'booking-payment-output.png') });
}

/**
 * The README's "Your first quote and booking", done as written in a new workflow: Add first step ›
 * Trigger manually, then the actions Create a quote (a CLICK route typed in) and Create a booking
 * with its defaults untouched, Execute workflow; the picture is the booking's output.
 */
async function firstBooking(page: Page) {
	await inScratchWorkflow(page, async () => {
		await page.locator('[data-test-id="canvas-add-button"]').click();
		await page.keyboard.type('Trigger manually');
		await page.getByText('Trigger manually', { exact: true }).first().click();
		await page.locator('[data-test-id="canvas-node"]').first().waitFor();
		await closePanel(page);
		await addAction(page, 'Create a quote');
		await page.locator('[data-test-id="parameter-input-serviceType"]').waitFor();
		const route: Array<[string, string]> = [
			['pickupAddress', '12 Allen Avenue, Ikeja, Lagos'],
			['pickupLatitude', '6.6018'],
			['pickupLongitude', '3.3515'],
			['dropoffAddress', '5 Admiralty Way, Lekki, Lagos'],
			['dropoffLatitude', '6.4474'],
			['dropoffLongitude', '3.4728'],
		];
		for (const [parameter, value] of route) {
			const input = page.locator(`[data-test-id="parameter-input-${parameter}"] input`).first();
			await input.fill(value);
			await input.press('Tab');
		}
		await closePanel(page);
		await addAction(page, 'Create a booking');
		await page.locator('[data-test-id="parameter-input-quoteId"]').waitFor();
		await closePanel(page);
		await executeWorkflow(page, 3);
		await page.locator('[data-test-id="canvas-node"]', { hasText: 'Create a booking' }).dblclick();
		await page
			.getByText(/bk_\d+/)
			.first()
			.waitFor();
		await settle(page);
		await page.screenshot({ path: join(docs, 'first-booking.png') });
	});
}

/** Clicks Execute workflow and waits until `nodes` nodes show their green tick. */
async function executeWorkflow(page: Page, nodes: number) {
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	const success = '[data-test-id="canvas-node-status-success"]';
	await page.waitForFunction(
		`document.querySelectorAll('${success}').length >= ${nodes}`,
		undefined,
		{ timeout: 60_000 },
	);
}

/** Adds an action of the package after the last node, from its output's + in the canvas. */
async function addAction(page: Page, action: string) {
	await page.locator('[data-test-id="canvas-handle-plus"]').last().click();
	await typePackageName(page);
	await page.keyboard.press('Enter');
	await page.getByText(action, { exact: true }).click();
}

/** Closes the node's panel with its close button, back to the canvas. */
async function closePanel(page: Page) {
	const ndv = page.locator('[data-test-id="ndv"]');
	if (await ndv.isVisible())
		await page.locator('[data-test-id="ndv-close-button"]').first().click();
	await ndv.waitFor({ state: 'hidden' });
}

/** The AI tools sample: the MCP Server Trigger with three Partner Logistics tools on its Tools input. */
async function mcpToolsWorkflow(page: Page) {
	await openWorkflow(page, WORKFLOW_IDS.mcpTools);
	await page
		.locator('[data-test-id="canvas-node"]', { hasText: 'Book a quoted delivery' })
		.waitFor();
	await settle(page);
	await page.screenshot({ path: join(docs, 'mcp-tools-workflow.png') });
}

const SHOTS: Record<string, (page: Page) => Promise<void>> = {
	'node-creator-entry': nodeCreatorEntry,
	'operation-picker': operationPicker,
	'canvas-subtitles': canvasSubtitles,
	'quote-create-empty': quoteCreateEmpty,
	'route-method-options': routeMethodOptions,
	'item-error': itemError,
	'trigger-production-url': triggerProductionUrl,
	'booking-workflow': finishedBooking,
	'mcp-tools-workflow': mcpToolsWorkflow,
	'first-booking': firstBooking,
};

async function main() {
	installCleanupHooks();
	const wanted = process.argv.slice(2);
	const unknown = wanted.filter((name) => !(name in SHOTS));
	if (unknown.length) throw new Error(`unknown shots ${unknown}; known: ${Object.keys(SHOTS)}`);
	let playground: Started | undefined;
	if (!(await playgroundRunning())) {
		console.log(`screenshots: no playground on ${base}, starting one (npm run dev)…`);
		playground = await startPlayground();
	}
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
	try {
		const page = await browser.newPage({ deviceScaleFactor: 1 });
		await signIn(page);
		for (const [name, shoot] of Object.entries(SHOTS)) {
			if (wanted.length && !wanted.includes(name)) continue;
			// Each picture starts from a clean editor of the same size; leaving a page with unsaved
			// changes asks for confirmation, which is declined for it.
			page.removeAllListeners('dialog');
			page.on('dialog', (dialog) => void dialog.accept());
			await page.setViewportSize({ width: 1440, height: 900 });
			await shoot(page);
			console.log(`screenshots: ${name} saved`);
		}
	} finally {
		await browser.close();
		if (playground) await stopStarted(playground, 20_000);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
