import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	readOnlyOperationValues,
	resourcePicker,
	resourceProperties,
	subtitleExpression,
} from './descriptions/resource';
import { searchHubs } from './methods/searchHubs';
import { testApiKey } from './methods/testApiKey';
import { optionsDescription, runOperation, selectedOperation } from './pipeline';
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
		properties: [
			resourcePicker(RESOURCES, 'quote'),
			...RESOURCES.flatMap(resourceProperties),
			...optionsDescription(readOnlyOperationValues(RESOURCES)),
		],
	};

	methods = { listSearch: { searchHubs }, credentialTest: { testApiKey } };

	/**
	 * Every path n8n runs the node through (a workflow run, an execution retry, a call as an AI
	 * Agent or MCP tool) calls `execute`, and every operation runs through the one pipeline
	 * (pipeline/run.ts). n8n's routing engine is never used: it evaluates every parameter of
	 * every item before the first request and sends all items at once (docs/architecture.md).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { resource, spec } = selectedOperation(this, RESOURCES);
		return await runOperation(this, resource, spec);
	}
}
