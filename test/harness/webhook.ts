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
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { HookContext, WebhookContext } from 'n8n-core';

import { HarnessCredentialsHelper } from './credentials';
import { PartnerLogisticsApi } from '../../credentials/PartnerLogisticsApi.credentials';
import { PartnerLogisticsTrigger } from '../../nodes/PartnerLogistics/PartnerLogisticsTrigger.node';

/**
 * Runs the trigger's webhook() behind an HTTP server with n8n-core's real WebhookContext and
 * express's real request and response, for the trigger's own glue (event filter, concurrency,
 * test events, publishing) in `npm test`. Imitated from n8n 2.41 (packages/cli live-webhooks,
 * webhook-helpers): the URL /webhook/<webhookId>/partner-logistics, req.readRawBody(), a fresh
 * Workflow per delivery, the onReceived answer (webhook()'s acknowledgement, or an empty 200), and
 * a webhook() that throws answered with n8n's generic 500. Nothing else of n8n: its body parsing
 * (and the 422 it answers to invalid JSON), routing and registration are real n8n's, in the
 * end-to-end suite (test/e2e/specs/webhook*.e2e.ts), which is the authority.
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
	const credentialsHelper = new HarnessCredentialsHelper(
		{ partnerLogisticsApi: new PartnerLogisticsApi() },
		{ partnerLogisticsApi: options.credentials ?? {} },
	);
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
		const data = additionalData(req, res);
		const context = new WebhookContext(
			newWorkflow(),
			node,
			data,
			mode,
			webhookData(data),
			[],
			null,
		);
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
		if (result.noWebhookResponse !== true) res.status(200).json(result.webhookResponse);
	});

	const server = app.listen(0, '127.0.0.1');
	await new Promise<void>((resolve) => server.once('listening', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/webhook/${webhookId}/${webhookDescription.path}`,
		executions,
		failures,
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

/** n8n's rawBodyReader: the raw bytes, read on demand. */
function rawBodyReader(req: Request, _res: Response, next: NextFunction) {
	req.readRawBody = async () => {
		if (req.rawBody) return;
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		req.rawBody = Buffer.concat(chunks);
	};
	next();
}
