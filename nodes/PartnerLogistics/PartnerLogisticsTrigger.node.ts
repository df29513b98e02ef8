import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { testApiKey } from './methods/testApiKey';
import { isRedelivery } from './webhook/dedupe';
import { deliveryWebhook, triggerProperties } from './webhook/description';
import { acceptsEventType, eventItem, parseEventBody } from './webhook/event';
import { REFUSALS, type RefusalReason, SENDER_MESSAGES } from './webhook/refusedDelivery';
import { SecretCache, type TriggerCredential } from './webhook/secrets';
import { resolveSettings, type SignatureScheme } from './webhook/settings';
import { type Delivery, headerValue, verifyDelivery } from './webhook/signature';

export class PartnerLogisticsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Logistics Trigger',
		name: 'partnerLogisticsTrigger',
		icon: {
			light: 'file:../../icons/partnerLogistics.svg',
			dark: 'file:../../icons/partnerLogistics.dark.svg',
		},
		group: ['trigger'],
		// 1.1 behaves as 1, but at 1 n8n 2.41 evaluates the Webhook node v1's binaryData option, in
		// an expression isolate, on every delivery: ~10% of n8n's CPU per delivery (bench/trigger.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"] ? "Events: " + $parameter["events"] : "All events"}}',
		// Describes the package: n8n's node panel shows it for both nodes' one entry (editor-ui
		// useActionsGeneration); the trigger's own action reads "On new Partner Logistics event".
		description:
			'Quote, book, pay and track Partner Logistics deliveries; start workflows on signed events',
		defaults: { name: 'Partner Logistics Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'partnerLogisticsApi',
				required: true,
				// The same Test button as the action node's: n8n may pick either node's.
				testedBy: 'testApiKey',
				displayOptions: { hide: { signatureScheme: ['none'] } },
			},
		],
		webhooks: [deliveryWebhook],
		properties: triggerProperties,
	};

	methods = { credentialTest: { testApiKey } };

	// The spec has no endpoint to register webhooks (the URL is pasted into the partner portal). n8n
	// calls checkExists on publishing and on "Listen for test event": a trigger that could verify
	// nothing fails to start then, not at every delivery; true ("registered") skips create.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkConfiguration(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await checkConfiguration(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	/** One delivery: settings → secrets → verify → parse → item → event filter → dedupe → run. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const test = isTestEvent(this);
		const configured = readSettings(this);
		if (!configured.ok) return misconfigured(this, configured.problem);
		const { settings } = configured;

		const credential = credentialOf(this, settings.signatureScheme);
		const hmacKeys = await secretCache.hmacKeys(credential, test ? 'fresh' : 'delivery');
		if (!hmacKeys.ok) return misconfigured(this, hmacKeys.problem);

		const delivery = await readDelivery(this);
		const verification = await secretCache.verify(credential, hmacKeys, (signing) =>
			verifyDelivery(settings, delivery, signing),
		);
		if ('problem' in verification) return misconfigured(this, verification.problem);
		if (!verification.ok) return refuse(this, verification.reason);

		const body = parseEventBody(delivery.rawBody, headerValue(delivery.headers, 'content-type'));
		if (!body.ok) return refuse(this, body.reason);

		const item = eventItem(body.event, verification, settings, delivery.headers);
		if (!acceptsEventType(settings.eventTypes, item.type)) return acknowledge('event-type');
		// Test events are never deduplicated, so each one shows in the editor.
		if (!test && isRedelivery(triggerScope(this), item.id, delivery, verification, settings)) {
			return acknowledge('duplicate');
		}
		return { workflowData: [[{ json: item as unknown as IDataObject }]] };
	}
}

const secretCache = new SecretCache();

function readSettings(context: IHookFunctions | IWebhookFunctions) {
	return resolveSettings(
		context.getNodeParameter('signatureScheme'),
		context.getNodeParameter('events', ''),
		context.getNodeParameter('options', {}) as IDataObject,
	);
}

function credentialOf(
	context: IHookFunctions | IWebhookFunctions,
	scheme: SignatureScheme,
): TriggerCredential {
	return {
		scheme,
		id: context.getNode().credentials?.partnerLogisticsApi?.id,
		read: async () => await context.getCredentials('partnerLogisticsApi'),
	};
}

/** The bytes as received, which are what was signed (not n8n's parsed body), and the headers. */
async function readDelivery(context: IWebhookFunctions): Promise<Delivery> {
	const request = context.getRequestObject();
	if (!request.rawBody) await request.readRawBody();
	return { rawBody: request.rawBody ?? Buffer.alloc(0), headers: context.getHeaderData() };
}

/** Publishing and "Listen for test event" fail with the problem, read afresh. */
async function checkConfiguration(context: IHookFunctions): Promise<boolean> {
	const configured = readSettings(context);
	if (!configured.ok) throw new NodeOperationError(context.getNode(), configured.problem);
	const credential = credentialOf(context, configured.settings.signatureScheme);
	const hmacKeys = await secretCache.hmacKeys(credential, 'fresh');
	if (!hmacKeys.ok) throw new NodeOperationError(context.getNode(), hmacKeys.problem);
	return true;
}

/** "Listen for test event" in the editor, rather than a published workflow. */
function isTestEvent(context: IWebhookFunctions): boolean {
	return context.getMode() === 'manual';
}

/**
 * Redeliveries are recognised per trigger in this process's memory (webhook/dedupe.ts), not in
 * static data: n8n 2.41.1 does not save it after a delivery that starts an execution (measured).
 */
function triggerScope(context: IWebhookFunctions): string {
	return `${context.getWorkflow().id}/${context.getNode().id}`;
}

function where(context: IWebhookFunctions) {
	return `Partner Logistics Trigger "${context.getNode().name}" in workflow ${context.getWorkflow().id}`;
}

/**
 * A delivery the trigger's own configuration leaves it unable to check: nothing runs, the sender
 * gets a 503 and the log (or, listening for a test event, the editor) says what is wrong.
 */
function misconfigured(context: IWebhookFunctions, problem: string): IWebhookResponseData {
	if (isTestEvent(context)) throw new NodeOperationError(context.getNode(), problem);
	context.logger.warn(`${where(context)} cannot check deliveries: ${problem}`);
	return answer(context, 503);
}

/**
 * A refused delivery: nothing runs, the reason goes to n8n's log at info level (never a header,
 * the body or a secret). Listening for a test event it is thrown: n8n shows it on the trigger, runs
 * nothing after it and stops listening, and the sender gets n8n's generic 500.
 */
function refuse(context: IWebhookFunctions, reason: RefusalReason): IWebhookResponseData {
	const { status, what, check } = REFUSALS[reason];
	if (isTestEvent(context)) {
		throw new NodeOperationError(context.getNode(), `Test event refused: ${what}`, {
			description: check,
		});
	}
	context.logger.info(`${where(context)} refused a delivery with ${status}: ${what} (${reason})`);
	return answer(context, status);
}

/** The sender's answer, generic; nothing runs. */
function answer(
	context: IWebhookFunctions,
	status: keyof typeof SENDER_MESSAGES,
): IWebhookResponseData {
	context.getResponseObject().status(status).json({ message: SENDER_MESSAGES[status] });
	return { noWebhookResponse: true };
}

/** A 2xx with no workflowData: the sender stops retrying and nothing runs. */
function acknowledge(ignored: 'duplicate' | 'event-type'): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored } };
}
