import { join } from 'node:path';

import {
	CaseWatch,
	CaseWatchScenario,
	caseWatchTests,
	crashAfterPollTests,
	DURABLE_SCHEDULER_ENV,
	type PollingStack,
	startPollingStack,
} from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';
import {
	recordWatchTests,
	RecordWatches,
	RecordWatchScenario,
	recordWatchWorkflows,
} from '../lib/watches';

// The polling trigger under n8n 2.41's durable scheduler with durable poll cursors: each Poll
// Time is a task in the database, a poll's memory (the node's static data) is read when its task
// starts and committed with the execution it starts. The support case scenario and the record
// watches' scenario, as in the regular files, with n8n kept down 20 s at the restart so the tasks
// of several Poll Times run together when it is back (before the fix, that emitted a change made
// meanwhile 3 or 4 times), and killed with SIGKILL right after a poll that found a change. n8n 2.x
// only (test/e2e/versions.json).
const suite = loadSuite();
const log = (line: string) => process.stderr.write(`e2e polling durable: ${line}\n`);
let polling: PollingStack;
let watch: CaseWatch;
let records: RecordWatchScenario;

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling-durable'),
		archiveDir: join(suite.logDir, 'polling-durable'),
		instanceEnv: DURABLE_SCHEDULER_ENV,
		workflows: (caseWatch) => recordWatchWorkflows(caseWatch),
		log,
	});
	watch = new CaseWatch(polling.client, polling.admin, polling.stack.sandbox.info);
	const watches = new RecordWatches(polling, ['quoteRequest', 'haulageQuotation', 'trip', 'truck']);
	records = new RecordWatchScenario(polling, watches);
}, 240_000);

afterAll(async () => await polling?.stop());

describe('support cases under the durable scheduler and cursors', () => {
	let scenario: CaseWatchScenario;
	beforeAll(() => (scenario = new CaseWatchScenario(polling, watch)));
	caseWatchTests(() => scenario, 20);
});

describe('record watches under the durable scheduler and cursors', () => {
	recordWatchTests(() => records);
});

describe('killed with SIGKILL right after a poll that found a change', () => {
	crashAfterPollTests(
		() => polling,
		() => watch,
		{ durable: true, log },
	);
});
