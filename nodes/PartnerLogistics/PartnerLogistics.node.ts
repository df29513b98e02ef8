import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceProperties, subtitleExpression } from './descriptions/resource';
import { searchHubs } from './methods/searchHubs';
import { testApiKey } from './methods/testApiKey';
import { runOperation, selectedOperation } from './pipeline';
import { RESOURCES } from './resources';

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
		subtitle: subtitleExpression(RESOURCES),
		description:
			'Quote and book deliveries, run GO_BULK and HAUL quotations, pay, track and manage support cases with the Partner Logistics API',
		defaults: { name: 'Partner Logistics' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// The Test button runs testApiKey: n8n's own test would follow redirects with the API key.
		credentials: [{ name: 'partnerLogisticsApi', required: true, testedBy: 'testApiKey' }],
		properties: resourceProperties(RESOURCES, 'quote'),
	};

	methods = { listSearch: { searchHubs }, credentialTest: { testApiKey } };

	// Runs, retries and tool calls take one pipeline, not n8n's routing engine: docs/architecture.md.
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { resource, spec } = selectedOperation(this, RESOURCES);
		return await runOperation(this, resource, spec);
	}
}
