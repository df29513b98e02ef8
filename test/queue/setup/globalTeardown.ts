import { archiveRun } from '../../e2e/setup/archive';
import { running, stopRunning } from './state';

/** Stops every process of the suite, then keeps the logs in test/e2e/.work/queue-last-run. */
export default async function globalTeardown(): Promise<void> {
	const workDir = running()?.workDir;
	await stopRunning();
	if (workDir) archiveRun(workDir, 'queue-last-run');
}
