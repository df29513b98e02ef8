import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import {
	CaseWatch,
	CaseWatchScenario,
	type PollingStack,
	startPollingStack,
} from '../../e2e/lib/polling';
import { queueEnv, roleLogFile, startWorker } from '../../e2e/lib/queueMode';
import { type Service, startRedis } from '../../e2e/lib/services';
import { createDatabase, loadQueueSuite } from '../setup/context';
import { ranExecution } from '../setup/executions';
import { RecordWatches, RecordWatchScenario, recordWatchWorkflows } from '../../e2e/lib/watches';

// The polling trigger in queue mode: the main polls (n8n runs polls on the main only) and saves
// the trigger's memory in Postgres; each change runs as an execution on a worker. This file
// restarts the main, so it runs its own main and worker on a database of their own in the suite's
// Postgres, with a Redis of their own; the scenarios are ../../e2e/lib/polling.ts (support cases)
// and ../../e2e/lib/watches.ts (one record watch: GO_BULK quote requests), as in the regular suite.
const suite = loadQueueSuite();
const DATABASE = 'n8n_polling';
const workDir = join(suite.workDir, 'polling');
let redis: Service;
let polling: PollingStack;
let watch: CaseWatch;
let records: RecordWatchScenario;

beforeAll(async () => {
	const log = (line: string) => process.stderr.write(`queue polling: ${line}\n`);
	await createDatabase(suite.postgres, DATABASE);
	mkdirSync(join(workDir, 'logs'), { recursive: true });
	redis = await startRedis(workDir, join(workDir, 'logs'));
	polling = await startPollingStack({
		workDir,
		archiveDir: join(suite.logDir, 'polling'),
		instanceEnv: queueEnv({
			postgresPort: suite.postgres.port,
			postgresUser: suite.postgres.user,
			database: DATABASE,
			redisPort: redis.port,
		}),
		others: async (stack) => [await startWorker(stack.instance, 'polling-worker')],
		workflows: (caseWatch) => recordWatchWorkflows(caseWatch, ['quoteRequest']),
		log,
	});
	watch = new CaseWatch(polling.client, polling.admin, polling.stack.sandbox.info);
	records = new RecordWatchScenario(polling, new RecordWatches(polling, ['quoteRequest']));
}, 300_000);

afterAll(async () => {
	await polling?.stop();
	await redis?.stop();
});

const workerLog = () => roleLogFile(polling.stack.instance, 'polling-worker');
describe('the polling trigger in queue mode', () => {
	let scenario: CaseWatchScenario;
	beforeAll(() => (scenario = new CaseWatchScenario(polling, watch)));

	it('Fetch Test Event shows the cases as they are now', async () => {
		await scenario.fetchTestEventShowsCurrentCases();
	});

	it('publishing polls at once on the main and emits nothing', async () => {
		await scenario.publishingOnlyLearns();
	});

	it('emits a new case once; the worker runs it', async () => {
		const execution = await scenario.newCaseOnce();
		expect(ranExecution(workerLog(), execution.id)).toBe(true);
	});

	it('emits a changed case once, and never the unchanged one', async () => {
		await scenario.changedCaseOnceUnchangedNever();
	});

	it('a poll that gets a 500 emits nothing; the change it missed comes once with the next poll', async () => {
		await scenario.failedPollLosesNothing();
	});

	it('repeats nothing after the main restarts, and emits a change made while it was down once', async () => {
		await scenario.restartRepeatsNothing();
		const execution = await scenario.changeWhileDownOnce();
		expect(ranExecution(workerLog(), execution.id)).toBe(true);
	});
});

describe('a quote request watch in queue mode', () => {
	it('publishing learns the requests on the main; the unknown ID is reported once, on the worker', async () => {
		const lists = await records.publishingLearnsAndReportsTheUnknownId();
		expect(ranExecution(workerLog(), lists.quoteRequest[0].id)).toBe(true);
	});

	it('the operator quotes a request: one item, run by the worker; then a later change, one more', async () => {
		const quoted = await records.operatorMovesOnce();
		expect(ranExecution(workerLog(), quoted.quoteRequest[0].id)).toBe(true);
		await records.laterChangeOnceMore();
	});

	it('a failed poll loses nothing and repeats nothing', async () => {
		await records.failedPollsLoseNothing();
	});

	it('repeats nothing after the main restarts, and emits a change made while it was down once', async () => {
		await records.restartRepeatsNothing();
		const lists = await records.changesWhileDownOnce(20);
		expect(ranExecution(workerLog(), lists.quoteRequest[0].id)).toBe(true);
	});
});
