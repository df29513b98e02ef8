import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { hubDescription } from './resources/hub';
import { searchHubs } from './shared/hubs';
import { optionsDescription } from './shared/options';
import { sendRequest } from './shared/request';

export class PartnerLogistics implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partner Logistics',
		name: 'partnerLogistics',
		icon: {
			light: 'file:../../icons/partnerLogistics.svg',
			dark: 'file:../../icons/partnerLogistics.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Quote and book deliveries, run GO_BULK and HAUL quotations, pay, track and manage support cases with the Partner Logistics API',
		defaults: { name: 'Partner Logistics' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'partnerLogisticsApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
			// Error statuses reach our postReceive, which explains them (shared/errors.ts).
			ignoreHttpStatusErrors: true,
		},
		requestOperations: { pagination: sendRequest },
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Hub', value: 'hub' }],
				default: 'hub',
			},
			...hubDescription,
			...optionsDescription,
		],
	};

	methods = {
		listSearch: { searchHubs },
	};
}
