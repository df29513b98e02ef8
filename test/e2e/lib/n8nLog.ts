import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { waitFor } from './http';

/**
 * n8n's own log file (JSON lines; the suite runs n8n at debug level), read from a mark on. It
 * shows what a stored execution does not keep: how many times a node ran under Retry On Fail.
 */
export class N8nLog {
	private constructor(
		private readonly file: string,
		private readonly offset: number,
	) {}

	/** Everything n8n logs after this call. */
	static mark(logDir: string): N8nLog {
		const file = join(logDir, 'n8n.log');
		return new N8nLog(file, statSync(file).size);
	}

	/**
	 * How many times `node` of `workflowId` started since the mark, read once its successful end
	 * is logged (n8n writes the log asynchronously, so it may lag the stored execution).
	 */
	async nodeStarts(workflowId: string, node: string): Promise<number> {
		const logged = (line: { message?: string; metadata?: { workflowId?: string } }, text: string) =>
			line.metadata?.workflowId === workflowId && line.message === `Running node "${node}" ${text}`;
		return waitFor(
			`n8n to log the end of "${node}"`,
			async () => {
				const lines = this.lines();
				if (!lines.some((line) => logged(line, 'finished successfully'))) return undefined;
				return lines.filter((line) => logged(line, 'started')).length;
			},
			{ timeoutMs: 10_000, intervalMs: 100 },
		);
	}

	private lines(): Array<{ message?: string; metadata?: { workflowId?: string } }> {
		const size = statSync(this.file).size;
		const buffer = Buffer.alloc(Math.max(0, size - this.offset));
		const fd = openSync(this.file, 'r');
		try {
			readSync(fd, buffer, 0, buffer.length, this.offset);
		} finally {
			closeSync(fd);
		}
		return jsonLines(buffer.toString('utf8'));
	}
}

/** The JSON lines of n8n's log text; a partial or non-JSON line is skipped. */
export function jsonLines(
	text: string,
): Array<{ message?: string; metadata?: Record<string, unknown> }> {
	return text.split('\n').flatMap((line) => {
		try {
			return [JSON.parse(line)];
		} catch {
			return [];
		}
	});
}
