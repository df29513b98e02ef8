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
		// The credential's Test button runs testApiKey (n8n prefers a credential's own `test`
		// request, which would follow redirects with the key attached).
		credentials: [{ name: 'partnerLogisticsApi', required: true, testedBy: 'testApiKey' }],
		properties: resourceProperties(RESOURCES, 'quote'),
	};

	methods = { listSearch: { searchHubs }, credentialTest: { testApiKey } };

	// Workflow runs, retries and AI Agent/MCP tool calls all run the one pipeline (pipeline/run.ts);
	// n8n's routing engine would read every item's parameters first, then send all items at once.
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { resource, spec } = selectedOperation(this, RESOURCES);
		return await runOperation(this, resource, spec);
	}
}
