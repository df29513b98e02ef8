import { type Execution, type N8nClient, nodeOutput } from './n8nApi';
import { CREDENTIAL_IDS } from './fixtures';
import type { SandboxAdmin } from './sandbox';

export interface LoggedRequest {
	seq: number;
	method: string;
	path: string;
	headers: Record<string, string>;
	body: unknown;
	status: number;
	replayed?: boolean;
}

/** The single item a node output, failing with the whole run data if there is not exactly one. */
export function onlyItem(execution: Execution, node: string): Record<string, unknown> {
	const items = nodeOutput(execution, node);
	if (items.length !== 1) {
		throw new Error(`"${node}" output ${items.length} items: ${JSON.stringify(items)}`);
	}
	return items[0];
}

/** Fails with the execution's error, not just "expected success", when a run did not succeed. */
export function expectSucceeded(execution: Execution): void {
	if (execution.status !== 'success') {
		const error = execution.data?.resultData.error;
		throw new Error(
			`Execution ${execution.id} ended "${execution.status}": ${error?.message ?? ''} ${
				error?.description ?? ''
			} (node ${error?.node?.name ?? execution.data?.resultData.lastNodeExecuted ?? '?'})`,
		);
	}
}

/** Partner requests the sandbox received since `afterSeq`. */
export async function sandboxRequests(admin: SandboxAdmin, afterSeq = 0): Promise<LoggedRequest[]> {
	const all = await admin.get<LoggedRequest[]>('/log');
	return all.filter((entry) => entry.seq > afterSeq);
}

export async function lastSeq(admin: SandboxAdmin): Promise<number> {
	const all = await admin.get<LoggedRequest[]>('/log');
	return all.length ? all[all.length - 1].seq : 0;
}

/** Runs a workflow as the editor does and returns its stored execution and the requests it made. */
export async function runWithRequests(
	suite: { client: N8nClient; admin: SandboxAdmin },
	workflowId: string,
): Promise<{ execution: Execution; requests: LoggedRequest[] }> {
	const since = await lastSeq(suite.admin);
	const execution = await suite.client.runManually(workflowId);
	return { execution, requests: await sandboxRequests(suite.admin, since) };
}

/** The Idempotency-Key the node derives for `action` (`resource.operation`) when none is set. */
export const derivedKey = (action: string) =>
	expect.stringMatching(new RegExp(`^n8n-${action.replace('.', '\\.')}-[0-9a-f]{40}$`));

/** The POSTs to paths matching `path`, in arrival order. */
export const postsTo = (requests: LoggedRequest[], path: RegExp) =>
	requests.filter((request) => request.method === 'POST' && path.test(request.path));

/**
 * A POST as the node sends it: a JSON request with the credential's key, the Idempotency-Key it
 * derives for the action, and exactly `body` (undefined: nothing was sent).
 */
export function expectNodePost(
	request: LoggedRequest | undefined,
	expected: { action: string; apiKey: string; body: unknown },
): void {
	expect(request?.headers).toMatchObject({
		'content-type': 'application/json',
		'x-svc-api-key': expected.apiKey,
		'idempotency-key': derivedKey(expected.action),
	});
	expect(request?.body).toEqual(expected.body);
}

/**
 * The credential test through n8n's public API (POST /api/v1/credentials/:id/test) gives the Test
 * button's answers: OK for the good key, the refusal explained for a wrong one. Asserted in the
 * regular and the queue suite, where it runs on the main rather than in the one process.
 */
export async function expectPublicApiCredentialTest(client: N8nClient): Promise<void> {
	const good = await client.publicApi('POST', `/credentials/${CREDENTIAL_IDS.full}/test`);
	expect(good.body).toMatchObject({ status: 'OK' });
	const bad = await client.publicApi('POST', `/credentials/${CREDENTIAL_IDS.badKey}/test`);
	expect(bad.body).toMatchObject({
		status: 'Error',
		message: expect.stringContaining('The API key was refused (401)'),
	});
}
