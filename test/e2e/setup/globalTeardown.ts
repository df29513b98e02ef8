import { stopAll } from '../lib/processes';
import { archiveRun } from './archive';
import { runningStack } from './state';

/** Stops n8n, the sandbox and anything else the suite started, then archives the run's logs. */
export default async function globalTeardown(): Promise<void> {
	const running = runningStack();
	await stopAll();
	if (running) archiveRun(running.workDir);
}
