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
import { PROCESS_MEMORY } from './shared/processMemory';
import { isRedelivery } from './webhook/dedupe';
import { deliveryWebhook, triggerProperties } from './webhook/description';
import { acceptsEventType, eventItem, parseEventBody } from './webhook/event';
import { REFUSALS, type RefusalReason, SENDER_MESSAGES } from './webhook/refusedDelivery';
import { type HmacKeysWanted, SecretCache, type TriggerCredential } from './webhook/secrets';
import { type Misconfiguration, resolveSettings } from './webhook/settings';
import { headerValue, verifyDelivery } from './webhook/signature';

export class PartnerLogisticsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Logistics Trigger',
		name: 'partnerLogisticsTrigger',
		icon: {
			light: 'file:../../icons/partnerLogistics.svg',
			dark: 'file:../../icons/partnerLogistics.dark.svg',
		},
		group: ['trigger'],
		// 1.1 is 1 without the Webhook v1 option n8n evaluates per delivery (docs/triggers.md).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"] ? "Events: " + $parameter["events"] : "All events"}}',
		// Of the package: n8n's node panel shows it for both nodes' one entry (useActionsGeneration).
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

	// The URL is pasted into the partner portal (no API registers webhooks). n8n calls checkExists on
	// publishing and on "Listen for test event": one unable to verify fails then; true skips create.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkConfiguration(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await checkConfiguration(this);
			},
			delete: async () => true,
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const test = this.getMode() === 'manual';
		const configured = await configuration(this, test ? 'fresh' : 'delivery');
		if (!configured.ok) return decline(this, configured.problem);
		const { settings, credential, hmacKeys } = configured;

		// The bytes as received are what was signed, not n8n's parsed body.
		const request = this.getRequestObject();
		if (!request.rawBody) await request.readRawBody();
		const delivery = { rawBody: request.rawBody ?? Buffer.alloc(0), headers: this.getHeaderData() };
		const verification = await secretCache.verify(credential, hmacKeys, (signing) =>
			verifyDelivery(settings, delivery, signing),
		);
		if ('problem' in verification) return decline(this, verification.problem);
		if (!verification.ok) return decline(this, verification.reason);
		const body = parseEventBody(delivery.rawBody, headerValue(delivery.headers, 'content-type'));
		if (!body.ok) return decline(this, body.reason);
		const item = eventItem(body.event, verification, settings, delivery.headers);
		if (!acceptsEventType(settings.eventTypes, item.type)) return acknowledge('event-type');
		// Test events are not deduplicated, so each shows; memory, not static data: docs/triggers.md.
		const scope = `${this.getWorkflow().id}/${this.getNode().id}`;
		if (!test && isRedelivery(scope, item.id, delivery, verification, settings))
			return acknowledge('duplicate');
		return { workflowData: [[{ json: item as unknown as IDataObject }]] };
	}
}

const secretCache = new SecretCache(Date.now, PROCESS_MEMORY.webhookSecrets);

/** The settings and HMAC keys to verify with, or the problem that leaves the trigger unable to. */
async function configuration(context: IHookFunctions | IWebhookFunctions, wanted: HmacKeysWanted) {
	const configured = resolveSettings(
		context.getNodeParameter('signatureScheme'),
		context.getNodeParameter('events', ''),
		context.getNodeParameter('options', {}) as IDataObject,
	);
	if (!configured.ok) return configured;
	const { settings } = configured;
	const credential: TriggerCredential = {
		scheme: settings.signatureScheme,
		id: context.getNode().credentials?.partnerLogisticsApi?.id,
		read: async () => await context.getCredentials('partnerLogisticsApi'),
	};
	const hmacKeys = await secretCache.hmacKeys(credential, wanted);
	return hmacKeys.ok ? { ok: true as const, settings, credential, hmacKeys } : hmacKeys;
}

/** Publishing and "Listen for test event" fail with the problem, read afresh. */
async function checkConfiguration(context: IHookFunctions): Promise<boolean> {
	const configured = await configuration(context, 'fresh');
	if (!configured.ok) throw problemError(context, configured.problem);
	return true;
}

const problemError = (context: IHookFunctions | IWebhookFunctions, problem: Misconfiguration) =>
	new NodeOperationError(context.getNode(), problem.message, problem);

/**
 * A delivery nothing runs for: on a test event the problem is thrown (n8n shows it; sender: 500).
 * Else it is logged (no header, body or secret) and the sender gets the refusal's status, or 503.
 */
function decline(context: IWebhookFunctions, why: RefusalReason | Misconfiguration) {
	const refusal = typeof why === 'string' ? REFUSALS[why] : undefined;
	const problem = refusal
		? { message: `Test event refused: ${refusal.what}`, description: refusal.check }
		: (why as Misconfiguration);
	if (context.getMode() === 'manual') throw problemError(context, problem);
	const logged = refusal
		? `refused a delivery with ${refusal.status}: ${refusal.what} (${why})`
		: `cannot check deliveries: ${problem.message}. ${problem.description}`;
	const where = `"${context.getNode().name}" in workflow ${context.getWorkflow().id}`;
	context.logger[refusal ? 'info' : 'warn'](`Partner Logistics Trigger ${where} ${logged}`);
	const status = refusal?.status ?? 503;
	context.getResponseObject().status(status).json({ message: SENDER_MESSAGES[status] });
	return { noWebhookResponse: true };
}

/** A 2xx with no workflowData: the sender stops retrying and nothing runs. */
function acknowledge(ignored: 'duplicate' | 'event-type'): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored } };
}
