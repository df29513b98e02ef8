import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * n8n's logger (winston) writes to a file in tests, which keeps test output readable and lets a
 * test assert that no secret was ever logged. setup.ts calls this before n8n's modules load.
 */
export function logToFile() {
	const folder = mkdtempSync(join(tmpdir(), 'partner-logistics-logs-'));
	process.env.N8N_LOG_OUTPUT = 'file';
	process.env.N8N_LOG_LEVEL = 'debug';
	process.env.N8N_LOG_FILE_LOCATION = join(folder, 'n8n.log');
}

/** What n8n has logged in this test file so far (winston writes asynchronously: await it). */
export async function loggedText(): Promise<string> {
	await new Promise((resolve) => setTimeout(resolve, 200));
	const file = process.env.N8N_LOG_FILE_LOCATION;
	return file && existsSync(file) ? readFileSync(file, 'utf8') : '';
}
