// The quotes bench's transport floor, loaded by the bench's n8n only (N8N_CUSTOM_EXTENSIONS, type
// CUSTOM.benchTransportFloor), never packed: each item's JSON POSTed as a quote through n8n's own
// request helper with our credential (decrypted once), 20 at a time, and nothing else: no parameters, checks, keys
// kept, pacing or retries. What a node costs beyond this is the node's own; what this costs beyond
// the fetch floor is n8n's transport (axios behind n8n's request helper, a new agent per request),
// which every node that sends through this.helpers pays. Plain JavaScript: n8n loads it as it is.
'use strict';

const CREDENTIAL = 'partnerLogisticsApi';
const IN_FLIGHT = 20;

class BenchTransportFloor {
	description = {
		displayName: 'Bench Transport Floor',
		name: 'benchTransportFloor',
		group: ['output'],
		version: 1,
		description: 'POSTs each item as a quote through n8n’s request helper (bench only)',
		defaults: { name: 'Bench Transport Floor' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL, required: true }],
		properties: [],
	};

	async execute() {
		const items = this.getInputData();
		// Decrypted once, as any careful node does: n8n would otherwise read it for every request.
		const data = await this.getCredentials(CREDENTIAL);
		const reference = this.getNode().credentials[CREDENTIAL];
		const decrypted = { credentialsDecrypted: { ...reference, type: CREDENTIAL, data } };
		const url = `${String(data.baseUrl).replace(/\/+$/, '')}/partner-api/booking-quotes`;
		const keyPrefix = `floor-${this.getExecutionId()}`;
		const output = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const index = next++;
				const json = await this.helpers.httpRequestWithAuthentication.call(
					this,
					CREDENTIAL,
					{
						method: 'POST',
						url,
						body: items[index].json,
						json: true,
						headers: { 'Idempotency-Key': `${keyPrefix}-${index}` },
					},
					decrypted,
				);
				output[index] = { json, pairedItem: { item: index } };
			}
		};
		await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
		return [output];
	}
}

module.exports = { BenchTransportFloor };
