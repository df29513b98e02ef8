import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { e2eWorkDir } from '../lib/paths';

/**
 * Keeps a copy of a run's logs in test/e2e/.work/<name> (gitignored) for a look after a failure,
 * then removes the temporary work folder unless E2E_KEEP_WORKDIR=1.
 */
export function archiveRun(workDir: string, name = 'last-run'): void {
	const lastRun = join(e2eWorkDir, name);
	rmSync(lastRun, { recursive: true, force: true });
	mkdirSync(lastRun, { recursive: true });
	for (const name of ['logs', 'sandbox.log']) {
		if (existsSync(join(workDir, name))) {
			cpSync(join(workDir, name), join(lastRun, name), { recursive: true });
		}
	}
	if (process.env.E2E_KEEP_WORKDIR === '1') {
		process.stderr.write(`e2e: work folder kept: ${workDir}\n`);
	} else {
		rmSync(workDir, { recursive: true, force: true });
	}
	process.stderr.write(`e2e: logs of this run: ${lastRun}\n`);
}
