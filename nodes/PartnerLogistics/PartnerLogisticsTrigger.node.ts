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

import { testApiKey } from './shared/credentialTest';
import { deliveryKey, eventIdMemory, rememberUntil } from './webhook/dedupe';
import { acceptsEventType, eventItem, parseEventBody } from './webhook/event';
import { REFUSALS, type RefusalReason } from './webhook/refusal';
import { SecretCache } from './webhook/secretCache';
import { type SecretsResult, usableSecrets } from './webhook/secrets';
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
		displayName: 'Event Type Header',
		name: 'eventTypeHeader',
		type: 'string',
		default: '',
		placeholder: 'e.g. X-Event-Type',
		description:
			'Header holding the event type, read only when the payload has no Event Type Field (for example when it is an array). A name of your choosing: the Partner Logistics API documentation names no such header. Empty reads none.',
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
		displayName: 'Remember Event IDs For (Hours)',
		name: 'rememberEventIdsHours',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 24,
		description:
			'How long a received event ID is remembered, so that a redelivery of the event (senders retry for days, each time with a fresh signature) is acknowledged without running the workflow again. At most 10,000 IDs per trigger, in the memory of this n8n process.',
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
		description: 'How far a delivery timestamp may be from now before the delivery is refused',
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
		// 1.1 behaves as 1. n8n 2.41 evaluates the Webhook node v1's binaryData option, through an
		// expression isolate, on every delivery to any webhook trigger at typeVersion 1; from 1.1 on
		// it does not, which measured ~10% of n8n's CPU per delivery (bench/trigger.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["events"] ? "Events: " + $parameter["events"] : "All events"}}',
		// n8n's node panel merges this trigger with the Partner Logistics node under one entry and shows
		// the trigger's description for the whole package (editor-ui useActionsGeneration): it
		// describes the package; the trigger's own action reads "On new Partner Logistics event".
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
					'Open "Webhook URLs" at the top of this panel, choose Production URL, and paste that address into the webhook settings of the partner portal. The Test URL only answers while this node is listening for a test event.',
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
				placeholder: 'Add Option',
				default: {},
				description:
					'Signature header details, timestamp tolerance, and where the event ID and type are read from',
				options: optionFields,
			},
		],
	};

	methods = { credentialTest: { testApiKey } };

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
		const manual = this.getMode() === 'manual';
		const settings = readSettings(this);
		if (!settings.ok) return misconfigured(this, settings.problem);
		// A test event reads the credential afresh: the user may have just edited it.
		let secrets = await readSecrets(this, settings.settings, manual ? 0 : SECRETS_REUSED_FOR_MS);
		if (!secrets.ok) return misconfigured(this, secrets.problem);

		const request = this.getRequestObject();
		if (!request.rawBody) await request.readRawBody();
		const delivery = { rawBody: request.rawBody ?? Buffer.alloc(0), headers: this.getHeaderData() };
		let verification = verifyDelivery(settings.settings, delivery, secrets.secrets);
		if (!verification.ok && verification.reason === 'signature-mismatch') {
			// The secret may have changed since it was read: read it again, at most every few seconds.
			const reread = await readSecrets(this, settings.settings, SECRETS_REREAD_AFTER_MS);
			if (reread !== secrets) {
				secrets = reread;
				if (!secrets.ok) return misconfigured(this, secrets.problem);
				verification = verifyDelivery(settings.settings, delivery, secrets.secrets);
			}
		}
		if (!verification.ok) return refuse(this, 401, verification.reason);

		const { rawBody, headers } = delivery;
		const body = parseEventBody(rawBody, headerValue(headers, 'content-type'));
		if (!body.ok) return refuse(this, 400, body.reason);

		const item = eventItem(body.event, verification, settings.settings, headers);
		if (!acceptsEventType(settings.settings.eventTypes, item.type))
			return acknowledge('event-type');
		const until = rememberUntil(verification.timestampMs, Date.now(), settings.settings);
		if (!manual && isRedelivery(this, deliveryKey(item.id, rawBody), until)) {
			return acknowledge('duplicate');
		}
		return { workflowData: [[{ json: item as unknown as IDataObject }]] };
	}
}

/** How long a delivery reuses the secrets read from the credential: edits apply within this. */
const SECRETS_REUSED_FOR_MS = 60_000;
/** A signature that does not match, or a broken secret, re-reads the credential after this. */
const SECRETS_REREAD_AFTER_MS = 5_000;
const secretCache = new SecretCache<SecretsResult>();

function readSettings(context: IHookFunctions | IWebhookFunctions) {
	return resolveSettings(
		context.getNodeParameter('signatureScheme'),
		context.getNodeParameter('events', ''),
		context.getNodeParameter('options', {}) as IDataObject,
	);
}

/**
 * The credential's secrets, from n8n's credential store (a database read and a decryption) unless
 * read for this credential and scheme less than `maxAgeMs` ago. A secret that yields no key is
 * remembered too, so a broken credential does not cost a database read per delivery, but checked
 * again after SECRETS_REREAD_AFTER_MS: the user is probably fixing it. A credential that cannot be
 * read at all is not remembered.
 */
async function readSecrets(
	context: IHookFunctions | IWebhookFunctions,
	settings: TriggerSettings,
	maxAgeMs: number,
): Promise<SecretsResult> {
	const scheme = settings.signatureScheme;
	if (scheme === 'none') return usableSecrets(scheme, undefined, undefined);
	const credentialId = context.getNode().credentials?.partnerLogisticsApi?.id;
	const key = `${scheme}/${credentialId}`;
	const now = Date.now();
	if (credentialId) {
		const cached = secretCache.get(key, now, maxAgeMs);
		if (cached?.ok || (cached && secretCache.get(key, now, SECRETS_REREAD_AFTER_MS))) return cached;
	}
	let credentials;
	try {
		credentials = await context.getCredentials('partnerLogisticsApi');
	} catch (error) {
		const reason = (error as Error).message;
		return {
			ok: false,
			problem: `The Partner Logistics API credential could not be read: ${reason}`,
		};
	}
	const result = usableSecrets(
		scheme,
		credentials.webhookSigningSecret,
		credentials.previousWebhookSigningSecret,
	);
	if (credentialId) secretCache.set(key, result, now);
	return result;
}

/** Publishing and "Listen for test event" fail with the problem, read afresh. */
async function loadConfiguration(context: IHookFunctions) {
	const settings = readSettings(context);
	if (!settings.ok) throw new NodeOperationError(context.getNode(), settings.problem);
	const secrets = await readSecrets(context, settings.settings, 0);
	if (!secrets.ok) throw new NodeOperationError(context.getNode(), secrets.problem);
}

function where(context: IWebhookFunctions) {
	return `Partner Logistics Trigger "${context.getNode().name}" in workflow ${context.getWorkflow().id}`;
}

/**
 * A delivery the trigger could not check because of its own configuration. Nothing runs. The
 * sender gets a 503 with a generic message (a non-2xx, so it retries once the user has fixed the
 * configuration); the log says what is wrong. While listening for a test event, the editor shows it.
 */
function misconfigured(context: IWebhookFunctions, problem: string): IWebhookResponseData {
	if (context.getMode() === 'manual') throw new NodeOperationError(context.getNode(), problem);
	context.logger.warn(`${where(context)} cannot check deliveries: ${problem}`);
	context
		.getResponseObject()
		.status(503)
		.json({ message: 'The receiver of these events is not configured correctly' });
	return { noWebhookResponse: true };
}

/**
 * A refused delivery: nothing runs, the sender gets a generic answer, the reason goes to n8n's log
 * at info level (never a header value, the body or a secret). While the editor listens for a test
 * event, the refusal is thrown instead: n8n then shows it on the trigger, runs nothing after it
 * and stops listening, and the sender gets n8n's generic 500.
 */
function refuse(context: IWebhookFunctions, status: 400 | 401, reason: RefusalReason) {
	const { what, check } = REFUSALS[reason];
	if (context.getMode() === 'manual') {
		throw new NodeOperationError(context.getNode(), `Test event refused: ${what}`, {
			description: check,
		});
	}
	context.logger.info(`${where(context)} refused a delivery with ${status}: ${what} (${reason})`);
	const message =
		status === 401
			? 'Webhook signature verification failed'
			: 'Expected JSON sent as application/json';
	context.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/** A 2xx with no workflowData: the sender stops retrying and nothing runs. */
function acknowledge(ignored: 'duplicate' | 'event-type'): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored } };
}

/**
 * Redeliveries of one event start one execution, per n8n process: an id is claimed in this
 * process's memory with no await between check and claim. Workflow static data is not used: n8n
 * 2.41.1 does not save a webhook trigger's static data after a delivery that starts an execution
 * (measured). Test events are never deduplicated, so each one shows in the editor.
 */
function isRedelivery(context: IWebhookFunctions, key: string, until: number): boolean {
	const scope = `${context.getWorkflow().id}/${context.getNode().id}`;
	return !eventIdMemory.claim(scope, key, until, Date.now());
}
