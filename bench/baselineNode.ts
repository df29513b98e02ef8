// The floor for Quote › Create: a programmatic node that does nothing but send each item's JSON as
// the body of one POST with n8n's own request helper, all items at once as n8n-core's RoutingNode
// does, and return the response bodies. No parameters, expressions, validation or retries.
import { randomUUID } from 'node:crypto';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export const BASELINE_NODE_TYPE = 'bench.baselineQuote';

export class BaselineQuote implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Baseline Quote',
		name: 'baselineQuote',
		group: ['transform'],
		version: 1,
		description: 'Bench floor: one plain POST per item',
		defaults: { name: 'Baseline Quote' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'partnerLogisticsApi', required: true }],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl, apiKey } = await this.getCredentials('partnerLogisticsApi');
		const url = `${String(baseUrl).replace(/\/+$/, '')}/partner-api/booking-quotes`;
		const responses = await Promise.all(
			this.getInputData().map(
				async (item) =>
					await this.helpers.httpRequest({
						method: 'POST',
						url,
						body: item.json,
						json: true,
						headers: {
							Accept: 'application/json',
							'Content-Type': 'application/json',
							'X-SVC-API-Key': String(apiKey),
							'Idempotency-Key': randomUUID(),
						},
					}),
			),
		);
		return [responses.map((json) => ({ json }))];
	}
}
