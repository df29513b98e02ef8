import { expectOk, requestJson, type JsonResponse, waitFor } from './http';

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/** One execution as the public API returns it with includeData=true. */
export interface Execution {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	workflowId: string;
	/** The execution this one retries (Executions › Retry), else null. */
	retryOf?: string | null;
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData: {
			runData: Record<string, Array<NodeRun>>;
			error?: { message: string; description?: string; node?: { name: string } };
			lastNodeExecuted?: string;
		};
	};
}

export interface NodeRun {
	executionStatus?: string;
	error?: { message: string; description?: string };
	data?: { main: Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }> | null> };
}

/**
 * n8n over HTTP: the editor's REST API (session cookie, as the browser uses it) and the public
 * API (X-N8N-API-KEY).
 */
export interface SessionAuth {
	cookie: string;
	apiKey: string;
}

export class N8nClient {
	private cookie = '';
	private apiKey = '';

	constructor(readonly baseUrl: string) {}

	static restore(baseUrl: string, auth: SessionAuth): N8nClient {
		const client = new N8nClient(baseUrl);
		client.cookie = auth.cookie;
		client.apiKey = auth.apiKey;
		return client;
	}

	auth(): SessionAuth {
		return { cookie: this.cookie, apiKey: this.apiKey };
	}

	/** Creates the owner on a fresh instance, or logs in when one exists (playground restarts). */
	async signIn(owner: Owner): Promise<void> {
		const setup = await requestJson(`${this.baseUrl}/rest/owner/setup`, { body: owner });
		const response =
			setup.status === 200
				? setup
				: await expectOk(`log in as ${owner.email}`, `${this.baseUrl}/rest/login`, {
						body: { emailOrLdapLoginId: owner.email, password: owner.password },
					});
		this.cookie = sessionCookie(response);
	}

	/** An API key for the public API with every scope the owner may grant. */
	async createApiKey(label: string): Promise<string> {
		const scopes = (await this.rest<string[]>('GET', '/api-keys/scopes')).data;
		const created = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label,
			expiresAt: null,
			scopes,
		});
		this.apiKey = created.data.rawApiKey;
		return this.apiKey;
	}

	async rest<T>(method: string, path: string, body?: unknown): Promise<{ data: T }> {
		const response = await expectOk<{ data: T }>(
			`${method} /rest${path}`,
			`${this.baseUrl}/rest${path}`,
			{
				method,
				headers: { cookie: this.cookie, 'browser-id': 'partner-logistics-e2e' },
				body,
			},
		);
		return response.body;
	}

	async restRaw<T>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
		return requestJson<T>(`${this.baseUrl}/rest${path}`, {
			method,
			headers: { cookie: this.cookie, 'browser-id': 'partner-logistics-e2e' },
			body,
		});
	}

	/**
	 * The credential dialog's Test button: POST /rest/credentials/test with the stored credential,
	 * as the editor sends it (secrets redacted; n8n fills them in from the database).
	 */
	async testStoredCredential(id: string): Promise<{ status: string; message: string }> {
		const stored = await this.rest<{ name: string; type: string; data: Record<string, unknown> }>(
			'GET',
			`/credentials/${id}?includeData=true`,
		);
		const { name, type, data } = stored.data;
		const result = await this.rest<{ status: string; message: string }>(
			'POST',
			'/credentials/test',
			{ credentials: { id, name, type, data } },
		);
		return result.data;
	}

	/** A GET the editor makes with its session, outside /rest (e.g. /types/nodes.json). */
	async editorGet<T>(path: string): Promise<JsonResponse<T>> {
		return requestJson<T>(`${this.baseUrl}${path}`, { headers: { cookie: this.cookie } });
	}

	async publicApi<T>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> {
		return requestJson<T>(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers: { 'x-n8n-api-key': this.apiKey },
			body,
		});
	}

	async activateWorkflow(id: string): Promise<void> {
		const response = await this.publicApi('POST', `/workflows/${id}/activate`);
		if (response.status !== 200) {
			throw new Error(
				`activate workflow ${id}: HTTP ${response.status} ${JSON.stringify(response.body)}`,
			);
		}
	}

	/**
	 * Saves a change to a workflow, as the editor's Save does, through the public API (GET, then
	 * PUT of the fields it accepts).
	 */
	async updateWorkflow(
		id: string,
		change: (workflow: {
			nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
		}) => void,
	): Promise<void> {
		const got = await this.publicApi<Record<string, unknown>>('GET', `/workflows/${id}`);
		if (got.status !== 200) throw new Error(`get workflow ${id}: HTTP ${got.status}`);
		const { name, nodes, connections, settings } = got.body as {
			name: string;
			nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
			connections: unknown;
			settings: Record<string, unknown>;
		};
		const workflow = { nodes };
		change(workflow);
		const put = await this.publicApi('PUT', `/workflows/${id}`, {
			name,
			nodes: workflow.nodes,
			connections,
			settings: { executionOrder: settings?.executionOrder ?? 'v1' },
		});
		if (put.status !== 200) {
			throw new Error(`update workflow ${id}: HTTP ${put.status} ${JSON.stringify(put.body)}`);
		}
	}

	/** Every execution of a workflow, newest first, with its run data. */
	async executions(workflowId: string): Promise<Execution[]> {
		const all: Execution[] = [];
		let cursor: string | undefined;
		do {
			const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
			if (cursor) query.set('cursor', cursor);
			const response = await this.publicApi<{ data: Execution[]; nextCursor?: string | null }>(
				'GET',
				`/executions?${query}`,
			);
			if (response.status !== 200) {
				throw new Error(
					`list executions: HTTP ${response.status} ${JSON.stringify(response.body)}`,
				);
			}
			all.push(...response.body.data);
			cursor = response.body.nextCursor ?? undefined;
		} while (cursor);
		return all;
	}

	/**
	 * Runs a workflow from its Manual Trigger exactly as the editor's "Execute workflow" button does
	 * (POST /rest/workflows/:id/run), then waits for the stored execution.
	 */
	async runManually(workflowId: string, timeoutMs = 60_000): Promise<Execution> {
		const workflow = await this.workflow(workflowId);
		const trigger = workflow.nodes?.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger) throw new Error(`Workflow ${workflowId} has no Manual Trigger`);
		const run = await this.startManualRun(workflowId, trigger.name, workflow);
		const executionId = run.executionId;
		if (!executionId) throw new Error(`n8n started no execution: ${JSON.stringify(run)}`);
		return this.waitForExecution(executionId, timeoutMs);
	}

	/** The workflow as the editor loads it (GET /rest/workflows/:id). */
	async workflow(
		workflowId: string,
	): Promise<{ id: string; nodes: Array<{ name: string; type: string }> }> {
		return (
			await this.rest<{ id: string; nodes: Array<{ name: string; type: string }> }>(
				'GET',
				`/workflows/${workflowId}`,
			)
		).data;
	}

	/**
	 * The editor's "Execute workflow" (or a trigger's "Listen for test event") from the trigger
	 * named: POST /rest/workflows/:id/run. n8n answers with the execution it started, or
	 * `waitingForWebhook` while a trigger listens. n8n 1.x's editor sends the whole workflow in that
	 * request (`workflowData`), 2.x's only the trigger: the body is the one the server's editor sends.
	 */
	async startManualRun(
		workflowId: string,
		triggerName: string,
		workflow?: { id: string },
		/** Run only up to this node, as a trigger's Fetch Test Event / Execute step does. */
		destination?: string,
	): Promise<{ executionId?: string; waitingForWebhook?: boolean }> {
		const triggerToStartFrom = { name: triggerName };
		const v1 = (await this.majorVersion()) < 2;
		const destinationNode =
			destination === undefined
				? {}
				: { destinationNode: { nodeName: destination, mode: 'inclusive' } };
		const body = v1
			? {
					workflowData: workflow ?? (await this.workflow(workflowId)),
					triggerToStartFrom,
					...destinationNode,
				}
			: { triggerToStartFrom, ...destinationNode };
		return (
			await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>(
				'POST',
				`/workflows/${workflowId}/run`,
				body,
			)
		).data;
	}

	private major: number | undefined;

	/** n8n's major version, from the settings the editor loads first (`versionCli`). */
	async majorVersion(): Promise<number> {
		if (this.major === undefined) {
			const settings = await this.rest<{ versionCli: string }>('GET', '/settings');
			this.major = Number(settings.data.versionCli.split('.')[0]);
		}
		return this.major;
	}

	async waitForExecution(id: string, timeoutMs = 60_000): Promise<Execution> {
		return waitFor(
			`execution ${id} to finish`,
			async () => {
				const response = await this.publicApi<Execution>(
					'GET',
					`/executions/${id}?includeData=true`,
				);
				if (response.status !== 200) return undefined;
				const { stoppedAt, status, data } = response.body;
				// n8n 1.x saves an ended execution's status and its data in two updates: until the
				// second, the data read back is the one it started with (no node has run in it).
				const saved = !!data?.resultData.lastNodeExecuted || !!data?.resultData.error;
				const done = stoppedAt && !['new', 'running', 'waiting'].includes(status) && saved;
				return done ? response.body : undefined;
			},
			{ timeoutMs, intervalMs: 200 },
		);
	}

	/**
	 * The editor's Executions › Retry (POST /rest/executions/:id/retry): `loadWorkflow` false is
	 * "Retry with original workflow", true "Retry with currently saved workflow". n8n answers with
	 * the new execution once it has ended; it is then read back, with its data, from the public API.
	 */
	async retryExecution(id: string, loadWorkflow: boolean, timeoutMs = 60_000): Promise<Execution> {
		const retry = await this.rest<{ id?: string }>('POST', `/executions/${id}/retry`, {
			loadWorkflow,
		});
		const retryId = retry.data.id;
		if (!retryId) throw new Error(`n8n started no retry of ${id}: ${JSON.stringify(retry.data)}`);
		return this.waitForExecution(String(retryId), timeoutMs);
	}

	async execution(id: string): Promise<Execution> {
		const response = await this.publicApi<Execution>('GET', `/executions/${id}?includeData=true`);
		if (response.status !== 200) {
			throw new Error(
				`get execution ${id}: HTTP ${response.status} ${JSON.stringify(response.body)}`,
			);
		}
		return response.body;
	}
}

function sessionCookie(response: JsonResponse): string {
	const cookies = response.headers.getSetCookie();
	const auth = cookies.find((cookie) => cookie.startsWith('n8n-auth='));
	if (!auth) throw new Error('n8n set no n8n-auth session cookie');
	return auth.split(';')[0];
}

/** The items a node output on its first run, on main output `output` (1: the error output). */
export function nodeOutput(
	execution: Execution,
	node: string,
	output = 0,
): Array<Record<string, unknown>> {
	const run = execution.data?.resultData.runData[node]?.[0];
	if (!run) throw new Error(`Node "${node}" did not run in execution ${execution.id}`);
	return (run.data?.main[output] ?? []).map((item) => item.json);
}

/** The pairedItem of each item a node output on its first run, on main output `output`. */
export function nodePairedItems(execution: Execution, node: string, output = 0): unknown[] {
	const run = execution.data?.resultData.runData[node]?.[0];
	if (!run) throw new Error(`Node "${node}" did not run in execution ${execution.id}`);
	return (run.data?.main[output] ?? []).map((item) => item.pairedItem);
}
