import type { INodeProperties } from 'n8n-workflow';

export const NUMBER_OPTIONS = {
	concurrency: {
		displayName: 'Concurrency',
		typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
		default: 20,
		description: 'How many items are sent to the API at the same time',
		hint: 'Lower it if the API answers 429 (rate limit) often; the node also slows down by itself when it does',
	},
	faultRetries: {
		displayName: 'Connection Retries',
		typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
		default: 3,
		description:
			'How often to retry after a broken connection, a timeout, or a 502/504 from a gateway, backing off from half a second',
		hint: 'Safe for bookings and payments too: a retry resends the same Idempotency-Key. The timeout is under Settings › Request Options (30 s when not set).',
	},
	maxRequestsPerSecond: {
		displayName: 'Max Requests per Second',
		typeOptions: { minValue: 0, maxValue: 1000, numberPrecision: 0 },
		default: 0,
		description: 'Never send faster than this; 0 sends as fast as the API accepts',
		hint: 'Set it to the rate your API contract allows to avoid 429 answers altogether',
	},
	maxRetries: {
		displayName: 'Max Retries',
		typeOptions: { minValue: 0, maxValue: 20, numberPrecision: 0 },
		// Ten carry even an unpaced batch of ten times the API's per-second limit; paced, one or two.
		default: 10,
		description:
			'How often to retry a request the API refused with 429 (rate limit) or 503 (unavailable), waiting as long as its Retry-After header asks (at most 60 s)',
		hint: 'Retries resend the same Idempotency-Key',
	},
} satisfies Record<string, Omit<INodeProperties, 'name' | 'type'>>;

/** The node's Options and Request Options; no Idempotency Key for `readOnlyOperations`. */
export function optionsDescription(readOnlyOperations: string[]): INodeProperties[] {
	const numbered = (name: keyof typeof NUMBER_OPTIONS) =>
		({ name, type: 'number', ...NUMBER_OPTIONS[name] }) as const;
	return [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				numbered('concurrency'),
				numbered('faultRetries'),
				{
					displayName: 'Dry Run',
					name: 'dryRun',
					type: 'boolean',
					default: false,
					description:
						"Whether to output the request each item would send (method, URL, body, Idempotency-Key, headers) instead of sending it: nothing reaches the API, reads included. A creation's preview carries stand-ins for the IDs the API would answer, so the next nodes in Dry Run preview their requests too.",
					hint: 'On: nothing is sent, each item shows its request; every check still runs. Off: requests are sent, and items from a dry run are refused.',
				},
				{
					displayName: 'Idempotency Key',
					name: 'idempotencyKey',
					type: 'string',
					default: '',
					placeholder: 'e.g. {{ $json.orderId }}-booking',
					description:
						'Key the API uses to recognise a repeated request, so a retry never books or pays twice. By default, booking a quote, paying, accepting or declining is keyed by what it acts on (the quote, booking, quote request or quotation), so it is done once whichever execution asks; creating is keyed per execution and item, resent by retries and a Retry from the Executions list; an item the API refused gets a fresh key.',
					hint: 'Leave empty for the default (see the tooltip). Set your own, e.g. from an order ID, to decide yourself.',
					displayOptions: { hide: { '/operation': readOnlyOperations } },
				},
				numbered('maxRequestsPerSecond'),
				numbered('maxRetries'),
			],
		},
		// n8n's Request Options as n8n-core's commonDeclarativeNodeOptionParameters names them (n8n adds
		// them only to nodes without `execute`); two texts reworded where n8n's lint asks.
		{
			displayName: 'Request Options',
			name: 'requestOptions',
			type: 'collection',
			isNodeSetting: true,
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Batching',
					name: 'batching',
					placeholder: 'Add Batching',
					type: 'fixedCollection',
					typeOptions: { multipleValues: false },
					default: { batch: {} },
					options: [
						{
							displayName: 'Batching',
							name: 'batch',
							values: [
								{
									displayName: 'Items per Batch',
									name: 'batchSize',
									type: 'number',
									typeOptions: { minValue: -1 },
									default: 50,
									description:
										'Input will be split in batches to throttle requests. -1 for disabled. 0 will be treated as 1.',
								},
								{
									displayName: 'Batch Interval (Milliseconds)',
									name: 'batchInterval',
									type: 'number',
									typeOptions: { minValue: 0 },
									default: 1000,
									description:
										'Time (in milliseconds) between each batch of requests. 0 for disabled.',
								},
							],
						},
					],
				},
				{
					displayName: 'Ignore SSL Issues (Insecure)',
					name: 'allowUnauthorizedCerts',
					type: 'boolean',
					noDataExpression: true,
					default: false,
					description: 'Whether to connect even if SSL certificate validation is not possible',
				},
				{
					displayName: 'Proxy',
					name: 'proxy',
					type: 'string',
					default: '',
					placeholder: 'e.g. http://myproxy:3128',
					description:
						'HTTP proxy to use. If authentication is required it can be defined as follow: http://username:password@myproxy:3128.',
				},
				{
					displayName: 'Timeout',
					name: 'timeout',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 10000,
					description:
						'Time in ms to wait for the whole answer (status, headers and body) before aborting the request',
				},
			],
		},
	];
}
