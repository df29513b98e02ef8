import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_RETRIES } from './request';

/** Operations that only read (GET): they send no Idempotency-Key. */
export const READ_OPERATIONS = ['get', 'getAll', 'getTrucks', 'getTruck', 'getTrip'];

/** Node behaviour switches, one collection for every operation. */
export const optionsDescription: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Idempotency Key',
				name: 'idempotencyKey',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.orderId }}-booking',
				description:
					'Key the API uses to recognise a repeated request, so a retry never books or pays twice',
				hint: 'Leave empty to use a key derived from this execution, node and item (stable across Retry On Fail). Set your own, e.g. from an order ID, to be safe across separate executions too.',
				displayOptions: { hide: { '/operation': READ_OPERATIONS } },
			},
			{
				displayName: 'Max Retries',
				name: 'maxRetries',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 20 },
				default: DEFAULT_MAX_RETRIES,
				description:
					'How often to retry a request the API refused with 429 (rate limit) or 503 (unavailable), waiting as long as its Retry-After header asks',
				hint: 'Retries resend the same Idempotency-Key',
			},
		],
	},
];
