import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { RESOURCES } from './resources';
import { searchHubs } from './shared/hubs';
import {
	readOnlyOperationValues,
	resourcePicker,
	resourceProperties,
	subtitleExpression,
} from './shared/operation';
import { optionsDescription } from './shared/options';
import { runOperation } from './shared/pipeline';

/**
 * Every operation runs its items through one pipeline (shared/pipeline.ts) by way of n8n's
 * `customOperations`, the sanctioned way for a declarative node to run an operation itself: n8n's
 * routing engine evaluates every declared parameter of every item before the first request and
 * sends all items at once, which is ten times slower than the HTTP Request node and floods a
 * rate-limited API (README: Architecture).
 */
const customOperations = Object.fromEntries(
	RESOURCES.map((resource) => [
		resource.value,
		Object.fromEntries(
			resource.operations.map((spec) => [
				spec.value,
				async function (this: IExecuteFunctions) {
					return await runOperation(this, resource.value, spec);
				},
			]),
		),
	]),
);

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
		credentials: [{ name: 'partnerLogisticsApi', required: true }],
		// Marks the node as declarative for n8n (n8n's shouldAssignExecuteMethod, since the node
		// has listSearch methods); requests are sent by shared/transport.ts, not from here.
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		properties: [
			resourcePicker(RESOURCES, 'quote'),
			...RESOURCES.flatMap(resourceProperties),
			...optionsDescription(readOnlyOperationValues(RESOURCES)),
		],
	};

	customOperations = customOperations;

	methods = {
		listSearch: { searchHubs },
	};
}
