import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { optionsField, textField } from '../descriptions/fields';

export type SignatureScheme = 'standardWebhooks' | 'stripe' | 'hmacHeader' | 'none';

const showFor = (...schemes: SignatureScheme[]) => ({ show: { '/signatureScheme': schemes } });

/** The trigger's Options: each option's default is declared here once (settings.ts reads it). */
export const optionFields: INodeProperties[] = [
	textField(
		'eventIdField',
		'Event ID Field',
		'Payload field holding the event ID, used to drop redelivered events. Standard Webhooks uses the webhook-ID header instead.',
		'data.eventId',
		{ default: 'id', displayOptions: showFor('stripe', 'hmacHeader', 'none') },
	),
	textField(
		'eventTypeField',
		'Event Type Field',
		'Payload field holding the event type that Events filters on. Dots read nested fields.',
		'type or data.eventType',
		{ default: 'type' },
	),
	textField(
		'eventTypeHeader',
		'Event Type Header',
		'Header holding the event type, read only when the payload has no Event Type Field (for example when it is an array). A name of your choosing: the Partner Logistics API documentation names no such header. Empty reads none.',
		'X-Event-Type',
	),
	optionsField(
		'hmacAlgorithm',
		'HMAC Algorithm',
		'Hash function of the HMAC the sender computes over the raw body',
		[
			['SHA-256', 'sha256'],
			['SHA-512', 'sha512'],
		],
		{ displayOptions: showFor('hmacHeader') },
	),
	optionsField(
		'hmacEncoding',
		'HMAC Encoding',
		'How the signature is written in the header',
		[
			['Base64', 'base64'],
			['Hex', 'hex'],
		],
		{ default: 'hex', displayOptions: showFor('hmacHeader') },
	),
	textField(
		'hmacHeaderName',
		'HMAC Signature Header',
		'Header carrying the signature. Several signatures separated by commas or spaces are accepted if any matches.',
		'X-Signature',
		{ default: 'X-Signature', displayOptions: showFor('hmacHeader') },
	),
	textField(
		'hmacPrefix',
		'HMAC Signature Prefix',
		'Text before each signature in the header, if the sender adds one',
		'sha256=',
		{ displayOptions: showFor('hmacHeader') },
	),
	{
		displayName: 'Remember Event IDs For (Hours)',
		name: 'rememberEventIdsHours',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 24,
		description:
			'How long a received event ID is remembered, so that a redelivery of the event (senders retry for days, each time with a fresh signature) is acknowledged without running the workflow again. At most 10,000 IDs per trigger, in the memory of this n8n process.',
	},
	textField(
		'stripeHeaderName',
		'Stripe-Style Signature Header',
		'Header carrying t=…,v1=…',
		'Stripe-Signature',
		{ default: 'Stripe-Signature', displayOptions: showFor('stripe') },
	),
	{
		displayName: 'Timestamp Tolerance (Seconds)',
		name: 'toleranceSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description: 'How far a delivery timestamp may be from now before the delivery is refused',
	},
	optionsField(
		'timestampUnit',
		'Timestamp Unit',
		'Unit of the signed timestamp the sender writes',
		[
			['Auto', 'auto', 'Values above 10,000,000,000 are milliseconds, others seconds'],
			['Milliseconds', 'milliseconds'],
			['Seconds', 'seconds'],
		],
		{ displayOptions: showFor('standardWebhooks', 'stripe') },
	),
];

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Open "Webhook URLs" at the top of this panel, choose Production URL, and paste that address into the webhook settings of the partner portal. The Test URL only answers while this node is listening for a test event.',
		name: 'webhookUrlNotice',
		type: 'notice',
		default: '',
	},
	optionsField(
		'signatureScheme',
		'Signature Scheme',
		'How Partner Logistics signs its events; ask your Partner Logistics contact if unsure',
		[
			[
				'HMAC of Body in a Header',
				'hmacHeader',
				'An HMAC of the raw body in one header; no timestamp, so weaker replay protection',
			],
			['None (Not Recommended)', 'none', 'Accept every delivery without checking who sent it'],
			[
				'Standard Webhooks',
				'standardWebhooks',
				'Webhook-ID, webhook-timestamp and webhook-signature headers (v1, HMAC-SHA256)',
			],
			[
				'Stripe-Style',
				'stripe',
				'One header with t=timestamp,v1=HMAC-SHA256 hex of "timestamp.body"',
			],
		],
		{ default: 'standardWebhooks', noDataExpression: true },
	),
	{
		displayName:
			'Anyone who learns this URL can start the workflow with any data. Use only for local tests, never for live partner events.',
		name: 'noSignatureWarning',
		type: 'notice',
		default: '',
		displayOptions: { show: { signatureScheme: ['none'] } },
	},
	textField(
		'events',
		'Events',
		'Other events are acknowledged to the sender and dropped. A trailing * matches a prefix.',
		'booking.created, payment.*',
		{
			hint: 'Event types to accept, separated by commas; leave empty for every event. Take the names from the partner portal or a received event.',
		},
	),
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
];

/** The one webhook: POST /webhook/<webhookId>/partner-logistics, the Production URL. */
export const deliveryWebhook: IWebhookDescription = {
	name: 'default',
	httpMethod: 'POST',
	// At once, so the sender never waits on the workflow; noData, or n8n 2.41 sends "firstEntryJson".
	responseMode: 'onReceived',
	responseData: 'noData',
	path: 'partner-logistics',
};
