import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeTypes,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { HookContext, WebhookContext } from 'n8n-core';

import { HarnessCredentialsHelper } from './credentials';
import { PartnerLogisticsApi } from '../../credentials/PartnerLogisticsApi.credentials';
import { PartnerLogisticsTrigger } from '../../nodes/PartnerLogistics/PartnerLogisticsTrigger.node';

/**
 * Runs the trigger's webhook() behind a real HTTP server the way n8n 2.41 does for a published
 * workflow (packages/cli: abstract-server rawBodyReader, live-webhooks, webhook-helpers
 * executeWebhook), with n8n-core's real WebhookContext and express's real request/response.
 *
 * Mimicked from n8n: the production URL /webhook/<webhookId>/partner-logistics; req.rawBody and
 * req.readRawBody(); the body parse, including the 422 n8n itself answers to invalid JSON sent as
 * application/json before any trigger runs; a fresh Workflow per delivery; the onReceived answer;
 * a webhook() that throws gives n8n's generic 500 and an execution that shows the error (a failed
 * production execution, or in test mode the error on the trigger in the editor).
 * Not covered: n8n's routing and webhook registration, CORS, gzip bodies, queue mode, workflow
 * static data (n8n 2.41.1 does not save a webhook trigger's after a delivery that starts an
 * execution; the trigger does not use it), the execution itself. Real n8n is the authority and
 * the end-to-end suite (test/e2e) is where the trigger meets it; the 422 was measured on n8n 2.41.1.
 */

const TYPE = 'n8n-nodes-partner-logistics.partnerLogisticsTrigger';
const trigger = new PartnerLogisticsTrigger();
const nodeTypes: INodeTypes = {
	getByName: () => trigger,
	getByNameAndVersion: () => trigger,
	getKnownTypes: () => ({}),
};
const webhookDescription = trigger.description.webhooks![0];

export interface TriggerHarnessOptions {
	parameters?: INodeParameters;
	credentials?: ICredentialDataDecryptedObject;
	/** 'webhook': a published workflow (the default); 'manual': "Listen for test event". */
	mode?: Extract<WorkflowExecuteMode, 'webhook' | 'manual'>;
}

export interface TriggerHarness {
	/** The Production URL n8n would show, on 127.0.0.1. */
	url: string;
	/** Items of every execution started, in order. */
	executions: IDataObject[][];
	/** Errors webhook() threw: n8n answers 500 and starts an execution that shows the error. */
	failures: Error[];
	/** How many times the trigger read its credential from n8n's credential store. */
	credentialReads(): number;
	/** Replaces what the credential store holds, as a user editing the credential does. */
	setCredentials(credentials: ICredentialDataDecryptedObject): void;
	/** Runs webhookMethods.default[method] as n8n does when the workflow is published. */
	runWebhookMethod(method: 'checkExists' | 'create' | 'delete'): Promise<boolean>;
	close(): Promise<void>;
}

export async function startTriggerHarness(
	options: TriggerHarnessOptions = {},
): Promise<TriggerHarness> {
	const mode = options.mode ?? 'webhook';
	const webhookId = randomUUID();
	const node: INode = {
		id: randomUUID(),
		name: 'Partner Logistics Trigger',
		type: TYPE,
		typeVersion: 1.1,
		position: [0, 0],
		webhookId,
		// As n8n stores it: only what the user set; Workflow fills in the defaults.
		parameters: options.parameters ?? {},
		// Its own credential id: the trigger caches what it reads per credential id, as in n8n.
		credentials: { partnerLogisticsApi: { id: randomUUID(), name: 'Partner Logistics' } },
	};
	const stored = { partnerLogisticsApi: options.credentials ?? {} };
	const credentialsHelper = new HarnessCredentialsHelper(
		{ partnerLogisticsApi: new PartnerLogisticsApi() },
		stored,
	);
	let credentialReads = 0;
	const getDecrypted = credentialsHelper.getDecrypted.bind(credentialsHelper);
	credentialsHelper.getDecrypted = async (...args) => {
		credentialReads++;
		return await getDecrypted(...args);
	};
	const executions: IDataObject[][] = [];
	const failures: Error[] = [];

	const newWorkflow = () =>
		new Workflow({
			id: 'wf-trigger-harness',
			name: 'trigger harness',
			nodes: [node],
			connections: {},
			active: mode === 'webhook',
			nodeTypes,
		});
	const additionalData = (request?: Request, response?: Response) =>
		({
			credentialsHelper,
			currentNodeExecutionIndex: 0,
			httpRequest: request,
			httpResponse: response,
			restApiUrl: 'http://127.0.0.1/rest',
			instanceBaseUrl: 'http://127.0.0.1/',
			webhookBaseUrl: 'http://127.0.0.1/webhook',
			webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
			webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
			variables: {},
		}) as unknown as IWorkflowExecuteAdditionalData;
	const webhookData = (data: IWorkflowExecuteAdditionalData): IWebhookData => ({
		httpMethod: 'POST',
		node: node.name,
		path: `${webhookId}/${webhookDescription.path}`,
		webhookDescription,
		workflowId: 'wf-trigger-harness',
		workflowExecuteAdditionalData: data,
		webhookId,
		isTest: mode === 'manual',
	});

	const app = express();
	app.use(rawBodyReader);
	app.post(`/webhook/${webhookId}/${webhookDescription.path}`, async (req, res) => {
		// n8n loads the workflow before it reads the body.
		const workflow = newWorkflow();
		try {
			await parseBody(req);
		} catch (error) {
			res.status(422).json({
				code: 422,
				message: 'Failed to parse request body',
				hint: (error as Error).message,
			});
			return;
		}
		const data = additionalData(req, res);
		const context = new WebhookContext(workflow, node, data, mode, webhookData(data), [], null);
		let result;
		try {
			result = await trigger.webhook.call(context);
		} catch (error) {
			failures.push(error as Error);
			res.status(500).json({
				code: 0,
				message: 'Workflow Webhook Error: Workflow could not be started!',
			});
			return;
		}
		if (result.workflowData !== undefined) {
			executions.push(result.workflowData[0].map((item: INodeExecutionData) => item.json));
		}
		if (result.noWebhookResponse !== true) {
			res.status(200).json(result.workflowData ? onReceivedBody(result) : ackBody(result));
		}
	});

	const server = app.listen(0, '127.0.0.1');
	await new Promise<void>((resolve) => server.once('listening', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/webhook/${webhookId}/${webhookDescription.path}`,
		executions,
		failures,
		credentialReads: () => credentialReads,
		setCredentials: (credentials) => {
			stored.partnerLogisticsApi = credentials;
		},
		runWebhookMethod: async (method) => {
			const workflow = newWorkflow();
			const data = additionalData();
			const activation = mode === 'manual' ? 'manual' : 'activate';
			const context = new HookContext(workflow, node, data, mode, activation, webhookData(data));
			return await trigger.webhookMethods.default[method].call(context);
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** n8n's extractWebhookOnReceivedResponse with the description's responseData. */
function onReceivedBody(result: IWebhookResponseData) {
	const responseData = webhookDescription.responseData ?? 'firstEntryJson';
	if (responseData === 'noData') return undefined;
	return responseData || (result.webhookResponse ?? { message: 'Workflow was started' });
}

/** What n8n answers when webhook() returns no workflowData. */
function ackBody(result: IWebhookResponseData) {
	return result.webhookResponse ?? { message: 'Webhook call received' };
}

/** n8n's rawBodyReader: the parsed content type, and the raw bytes read on demand. */
function rawBodyReader(req: Request, _res: Response, next: NextFunction) {
	const [type, ...parameters] = (req.headers['content-type'] ?? '').split(';');
	if (type) req.contentType = type.trim().toLowerCase();
	const charset = parameters.find((p) => p.trim().toLowerCase().startsWith('charset='));
	req.encoding = (charset?.split('=')[1]?.trim().toLowerCase() ?? 'utf-8') as BufferEncoding;
	req.readRawBody = async () => {
		if (req.rawBody) return;
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		req.rawBody = Buffer.concat(chunks);
	};
	next();
}

/** n8n's parseBody for the types a JSON webhook meets; a JSON parse error becomes its 422. */
async function parseBody(req: Request) {
	await req.readRawBody();
	req.body = {};
	if (!req.rawBody.length) return;
	const text = req.rawBody.toString(req.encoding).replace(/^\uFEFF/, '');
	if (req.contentType === 'application/json') req.body = JSON.parse(text);
	else if (req.contentType === 'text/plain') req.body = text;
}
