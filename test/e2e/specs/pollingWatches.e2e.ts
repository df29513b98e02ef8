import { join } from 'node:path';

import { startPollingStack, type PollingStack } from '../lib/polling';
import { loadSuite } from '../lib/suiteContext';
import {
	recordWatchTests,
	RecordWatches,
	RecordWatchScenario,
	recordWatchWorkflows,
} from '../lib/watches';

// The record watches of the polling trigger in real n8n 2.41 with n8n's own (regular) scheduler:
// GO_BULK quote requests and HAUL quotations until the operator quotes them, trips and trucks
// until they move, each in a published workflow polling every few seconds. On an n8n and a
// sandbox of their own (this file restarts n8n); the steps are in ../lib/watches.ts.
const suite = loadSuite();
let polling: PollingStack;
let scenario: RecordWatchScenario;

beforeAll(async () => {
	polling = await startPollingStack({
		workDir: join(suite.workDir, 'polling-watches'),
		archiveDir: join(suite.logDir, 'polling-watches'),
		workflows: (caseWatch) => recordWatchWorkflows(caseWatch),
		log: (line) => process.stderr.write(`e2e polling watches: ${line}\n`),
	});
	const watches = new RecordWatches(polling, ['quoteRequest', 'haulageQuotation', 'trip', 'truck']);
	scenario = new RecordWatchScenario(polling, watches);
}, 240_000);

afterAll(async () => await polling?.stop());

describe('watching quote requests, HAUL quotations, trips and trucks in real n8n', () => {
	recordWatchTests(() => scenario);
});
