import { readFileSync } from 'node:fs';

import { requestJson, sleep, waitFor } from '../../e2e/lib/http';
import type { Execution, N8nClient } from '../../e2e/lib/n8nApi';
import { jsonLines } from '../../e2e/lib/n8nLog';

const FINAL = ['success', 'error', 'crashed', 'canceled'];

/**
 * Every execution of a workflow once the queue has drained: at least `atLeast` of them, all in a
 * final state, and the same count on two polls a second apart (the public API lists queued
 * executions too, and a delivery may still be on its way to the worker).
 */
export async function settledExecutions(
	client: N8nClient,
	workflowId: string,
	atLeast: number,
	timeoutMs = 120_000,
): Promise<Execution[]> {
	let previous = -1;
	return waitFor(
		`${atLeast}+ settled executions of ${workflowId}`,
		async () => {
			const list = await client.executions(workflowId);
			const settled =
				list.length >= atLeast && list.every((execution) => FINAL.includes(execution.status));
			const stable = settled && list.length === previous;
			previous = settled ? list.length : -1;
			if (!stable) await sleep(750);
			return stable ? list : undefined;
		},
		{ timeoutMs, intervalMs: 250 },
	);
}

/** n8n's JSON log lines of one process. */
export function logLines(file: string): ReturnType<typeof jsonLines> {
	return jsonLines(readFileSync(file, 'utf8'));
}

/** Whether a process logged that it, as a worker, ran this execution. */
export const ranExecution = (file: string, executionId: string) =>
	logLines(file).some(
		(line) =>
			line.message?.startsWith(`Worker started execution ${executionId} `) &&
			String(line.metadata?.executionId) === executionId,
	);

/** The processes whose log says they ran the execution (the worker logs each one it starts). */
export const processesThatRan = (logFiles: Record<string, string>, executionId: string) =>
	waitFor(`a process to log that it ran execution ${executionId}`, async () => {
		const roles = Object.entries(logFiles)
			.filter(([, file]) => ranExecution(file, executionId))
			.map(([role]) => role);
		return roles.length ? roles : undefined;
	});

/**
 * POSTs to a production webhook URL on a webhook process (until that process knows the workflow;
 * a 404 starts nothing) and returns the execution the worker then ran.
 */
export async function executeByWebhook(
	client: N8nClient,
	workflowId: string,
	url: string,
): Promise<Execution> {
	const before = (await settledExecutions(client, workflowId, 0)).length;
	await waitFor(`the webhook ${url}`, async () => {
		const answer = await requestJson(url, { body: {} });
		return answer.status === 404 ? undefined : answer.status;
	});
	return (await settledExecutions(client, workflowId, before + 1))[0];
}
