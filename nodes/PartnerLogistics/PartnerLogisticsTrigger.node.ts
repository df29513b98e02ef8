import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	deliveryKey,
	isSeen,
	processSeenEvents,
	readSeenEvents,
	rememberEvent,
	seenUntil,
} from './webhook/dedupe';
import { acceptsEventType, eventItem, parseEventBody } from './webhook/event';
import { usableSecrets } from './webhook/secrets';
import { resolveSettings, type TriggerSettings } from './webhook/settings';
import { headerValue, verifyDelivery } from './webhook/signature';

const showFor = (...schemes: TriggerSettings['signatureScheme'][]) => ({
	show: { '/signatureScheme': schemes },
});

// Defaults repeat webhook/settings.ts DEFAULT_OPTIONS as literals (n8n's lint reads literals);
// test/trigger/description.test.ts keeps the two equal.
const optionFields: INodeProperties[] = [
	{
		displayName: 'Event ID Field',
		name: 'eventIdField',
		type: 'string',
		default: 'id',
		placeholder: 'e.g. data.eventId',
		description:
			'Payload field holding the event ID, used to drop redelivered events. Standard Webhooks uses the webhook-ID header instead.',
		displayOptions: showFor('stripe', 'hmacHeader', 'none'),
	},
	{
		displayName: 'Event Type Field',
		name: 'eventTypeField',
		type: 'string',
		default: 'type',
		placeholder: 'e.g. type or data.eventType',
		description:
			'Payload field holding the event type that Events filters on. Dots read nested fields.',
	},
	{
		displayName: 'HMAC Algorithm',
		name: 'hmacAlgorithm',
		type: 'options',
		options: [
			{ name: 'SHA-256', value: 'sha256' },
			{ name: 'SHA-512', value: 'sha512' },
		],
		default: 'sha256',
		description: 'Hash function of the HMAC the sender computes over the raw body',
		displayOptions: showFor('hmacHeader'),
	},
	{
		displayName: 'HMAC Encoding',
		name: 'hmacEncoding',
		type: 'options',
		options: [
			{ name: 'Base64', value: 'base64' },
			{ name: 'Hex', value: 'hex' },
		],
		default: 'hex',
		description: 'How the signature is written in the header',
		displayOptions: showFor('hmacHeader'),
	},
	{
		displayName: 'HMAC Signature Header',
		name: 'hmacHeaderName',
		type: 'string',
		default: 'X-Signature',
		placeholder: 'e.g. X-Signature',
		description:
			'Header carrying the signature. Several signatures separated by commas or spaces are accepted if any matches.',
		displayOptions: showFor('hmacHeader'),
	},
	{
		displayName: 'HMAC Signature Prefix',
		name: 'hmacPrefix',
		type: 'string',
		default: '',
		placeholder: 'e.g. sha256=',
		description: 'Text before each signature in the header, if the sender adds one',
		displayOptions: showFor('hmacHeader'),
	},
	{
		displayName: 'Stripe-Style Signature Header',
		name: 'stripeHeaderName',
		type: 'string',
		default: 'Stripe-Signature',
		placeholder: 'e.g. Stripe-Signature',
		description: 'Header carrying t=…,v1=…',
		displayOptions: showFor('stripe'),
	},
	{
		displayName: 'Timestamp Tolerance (Seconds)',
		name: 'toleranceSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'How far a delivery timestamp may be from now before the delivery is refused, and how long event IDs are remembered to drop redeliveries',
	},
	{
		displayName: 'Timestamp Unit',
		name: 'timestampUnit',
		type: 'options',
		options: [
			{
				name: 'Auto',
				value: 'auto',
				description: 'Values above 10,000,000,000 are milliseconds, others seconds',
			},
			{ name: 'Milliseconds', value: 'milliseconds' },
			{ name: 'Seconds', value: 'seconds' },
		],
		default: 'auto',
		description: 'Unit of the signed timestamp the sender writes',
		displayOptions: showFor('standardWebhooks', 'stripe'),
	},
];

export class PartnerLogisticsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Logistics Trigger',
		name: 'partnerLogisticsTrigger',
		icon: {
			light: 'file:../../icons/partnerLogistics.svg',
			dark: 'file:../../icons/partnerLogistics.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"] ? "Events: " + $parameter["events"] : "All events"}}',
		description: 'Starts the workflow when Partner Logistics sends a signed webhook event',
		defaults: { name: 'Partner Logistics Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'partnerLogisticsApi',
				required: true,
				displayOptions: { hide: { signatureScheme: ['none'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// Answer at once: the sender's timeout never depends on how long the workflow runs. An
				// empty 200 (without noData n8n 2.41 sends the literal text "firstEntryJson").
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'partner-logistics',
			},
		],
		properties: [
			{
				displayName:
					'Paste the Production URL above into the webhook settings of the partner portal. The Test URL only works while "Listen for test event" is active in the editor.',
				name: 'webhookUrlNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Signature Scheme',
				name: 'signatureScheme',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'HMAC of Body in a Header',
						value: 'hmacHeader',
						description:
							'An HMAC of the raw body in one header; no timestamp, so weaker replay protection',
					},
					{
						name: 'None (Not Recommended)',
						value: 'none',
						description: 'Accept every delivery without checking who sent it',
					},
					{
						name: 'Standard Webhooks',
						value: 'standardWebhooks',
						description:
							'Webhook-ID, webhook-timestamp and webhook-signature headers (v1, HMAC-SHA256)',
					},
					{
						name: 'Stripe-Style',
						value: 'stripe',
						description: 'One header with t=timestamp,v1=HMAC-SHA256 hex of "timestamp.body"',
					},
				],
				default: 'standardWebhooks',
				description:
					'How Partner Logistics signs its events; ask your Partner Logistics contact if unsure',
			},
			{
				displayName:
					'Anyone who learns this URL can start the workflow with any data. Use only for local tests, never for live partner events.',
				name: 'noSignatureWarning',
				type: 'notice',
				default: '',
				displayOptions: { show: { signatureScheme: ['none'] } },
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'string',
				default: '',
				placeholder: 'e.g. booking.created, payment.*',
				hint: 'Event types to accept, separated by commas; leave empty for every event. Take the names from the partner portal or a received event.',
				description:
					'Other events are acknowledged to the sender and dropped. A trailing * matches a prefix.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				description:
					'Signature header details, timestamp tolerance and the payload fields holding the event ID and type',
				options: optionFields,
			},
		],
	};

	// The spec has no endpoint to register webhook destinations: the URL is pasted into the partner
	// portal by hand, so n8n has nothing to create or delete remotely. n8n calls checkExists when
	// the workflow is published and when "Listen for test event" starts; it checks the settings and
	// secret there so a trigger that could verify nothing fails to start with a message, rather
	// than refusing every delivery later. Returning true means "registered" (by the user), so n8n
	// skips create; create repeats the check should n8n ever call it; delete has nothing to remove.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await loadConfiguration(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await loadConfiguration(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const { settings, secrets } = await loadConfiguration(this);
		const request = this.getRequestObject();
		if (!request.rawBody) await request.readRawBody();
		const rawBody = request.rawBody ?? Buffer.alloc(0);
		const headers = this.getHeaderData();

		const verification = verifyDelivery(settings, { rawBody, headers }, secrets);
		if (!verification.ok) {
			return refuse(this, 401, 'Webhook signature verification failed', verification.reason);
		}
		const body = parseEventBody(rawBody, headerValue(headers, 'content-type'));
		if (!body.ok) return refuse(this, 400, 'Expected a JSON object event', body.reason);

		const item = eventItem(body.event, verification, settings, headers);
		if (!acceptsEventType(settings.eventTypes, item.type)) return acknowledge('event-type');
		const key = deliveryKey(item.id, rawBody);
		const until = seenUntil(verification.timestampMs, Date.now(), settings.toleranceSeconds);
		if (isRedelivery(this, key, until)) return acknowledge('duplicate');

		return { workflowData: [[{ json: item as unknown as IDataObject }]] };
	}
}

async function loadConfiguration(context: IHookFunctions | IWebhookFunctions) {
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const resolved = resolveSettings(
		context.getNodeParameter('signatureScheme'),
		context.getNodeParameter('events', ''),
		options,
	);
	if (!resolved.ok) throw new NodeOperationError(context.getNode(), resolved.problem);
	const { settings } = resolved;
	const credentials =
		settings.signatureScheme === 'none' ? {} : await context.getCredentials('partnerLogisticsApi');
	const secrets = usableSecrets(
		settings.signatureScheme,
		credentials.webhookSigningSecret,
		credentials.previousWebhookSigningSecret,
	);
	if (!secrets.ok) throw new NodeOperationError(context.getNode(), secrets.problem);
	return { settings, secrets: secrets.secrets };
}

/**
 * Answers the sender ourselves: throwing instead would answer 500 and record a failed execution.
 * The body names the check that failed, never a header value or the secret.
 */
function refuse(context: IWebhookFunctions, status: number, message: string, reason: string) {
	context.logger.debug(`Partner Logistics Trigger refused a delivery (${status}, ${reason})`);
	context.getResponseObject().status(status).json({ message, reason });
	return { noWebhookResponse: true };
}

/** A 2xx with no workflowData: the sender stops retrying and nothing runs. */
function acknowledge(ignored: 'duplicate' | 'event-type'): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored } };
}

/**
 * Deduplication, in active workflows only: a test run ("Listen for test event") takes a single
 * delivery anyway. At most MAX_SEEN_EVENTS ids, each for the tolerance window, in two places:
 * - this process's memory, a check-and-claim with no await in between, so concurrent and repeated
 *   deliveries to one n8n process start one execution; lost when n8n restarts;
 * - the node's workflow static data, which n8n loads per delivery and saves after answering, for
 *   active workflows only. Measured in n8n 2.41.1 regular mode, the save is skipped when the
 *   delivery starts an execution (the execution re-wraps the same object and clears n8n's changed
 *   flag) unless no static data existed yet. In queue mode n8n's code saves it and webhook
 *   processes share it, though concurrent duplicates reaching two processes still race.
 */
function isRedelivery(context: IWebhookFunctions, key: string, until: number): boolean {
	if (context.getMode() === 'manual') return false;
	const now = Date.now();
	const staticData = context.getWorkflowStaticData('node');
	const seen = readSeenEvents(staticData.seenEventIds);
	const scope = `${context.getWorkflow().id}/${context.getNode().id}`;
	// No await from here on: the check and the claim cannot interleave with another delivery.
	if (isSeen(seen, key, now) || !processSeenEvents.claim(scope, key, until, now)) return true;
	staticData.seenEventIds = rememberEvent(seen, key, until, now);
	return false;
}
