import { join } from 'node:path';

import {
	CaseWatch,
	CaseWatchScenario,
	caseWatchTests,
	crashAfterPollTests,
	type PollingStack,
	startPollingStack,
} from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';

// The Partner Logistics Polling Trigger in real n8n: the support case watch sample, published and
// polling through n8n's own scheduler, against the sandbox. It runs on an n8n and a sandbox of its
// own (this file restarts n8n, and kills it); the steps and what must hold are in ../lib/polling.ts,
// shared with the queue suite.
const suite = loadSuite();
const log = (line: string) => process.stderr.write(`e2e polling: ${line}\n`);
let polling: PollingStack;
let watch: CaseWatch;

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling'),
		archiveDir: join(suite.logDir, 'polling'),
		log,
	});
	watch = new CaseWatch(polling.client, polling.admin, polling.stack.sandbox.info);
}, 240_000);

afterAll(async () => await polling?.stop());

describe('the polling trigger in real n8n', () => {
	let scenario: CaseWatchScenario;
	beforeAll(() => (scenario = new CaseWatchScenario(polling, watch)));
	caseWatchTests(() => scenario);
});

describe('killed with SIGKILL right after a poll that found a change', () => {
	crashAfterPollTests(
		() => polling,
		() => watch,
		{ durable: false, log },
	);
});
