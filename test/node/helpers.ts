import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RequestLogEntry, Sandbox } from '../sandbox';
import { runNode, type HarnessNode } from '../harness';

export const credentialsFor = (sandbox: Sandbox, key = sandbox.keys.full) => ({
	baseUrl: sandbox.url,
	apiKey: key,
});

/** Runs one node on fresh logs and returns its items (json), its error and the requests it made. */
export async function runAgainst(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: { input?: IDataObject[]; key?: string } & Pick<HarnessNode, 'id' | 'settings'> = {},
) {
	sandbox.clearLog();
	const result = await runNode(parameters, {
		credentials: credentialsFor(sandbox, options.key),
		input: options.input,
		id: options.id,
		settings: options.settings,
	});
	return {
		result,
		items: result.output().map((item) => item.json),
		error: result.error() as (Error & { description?: string; context?: IDataObject }) | undefined,
		requests: sandbox.requests(),
	};
}

/** The one request an operation made: method, path, body and the headers every request carries. */
export function expectOneRequest(
	sandbox: Sandbox,
	requests: RequestLogEntry[],
	expected: {
		method: 'GET' | 'POST';
		path: string;
		body?: unknown;
		query?: Record<string, string>;
	},
) {
	expect(requests).toHaveLength(1);
	const [request] = requests;
	expect(request.method).toBe(expected.method);
	expect(request.path).toBe(expected.path);
	expect(request.headers['x-svc-api-key']).toBe(sandbox.keys.full);
	expect(request.headers['content-type']).toMatch(/application\/json/);
	if (expected.method === 'POST') {
		expect(request.headers['idempotency-key']).toMatch(/^n8n-[a-zA-Z]+\.[a-zA-Z]+-[0-9a-f]{40}$/);
		expect(request.body).toEqual(expected.body);
	} else {
		expect(request.headers).not.toHaveProperty('idempotency-key');
		expect(request.body).toBeUndefined();
	}
	if (expected.query) expect(request.query).toEqual(expected.query);
	return request;
}

export const rl = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

/** A valid CLICK home-to-home route as node parameters. */
export const clickRoute = {
	serviceType: 'CLICK',
	pickupAddress: '12 Allen Avenue, Ikeja',
	pickupLatitude: 6.6018,
	pickupLongitude: 3.3515,
	dropoffAddress: '5 Admiralty Way, Lekki',
	dropoffLatitude: 6.4474,
	dropoffLongitude: 3.4728,
};

/** The route of each input row, mapped by one expression per field. */
export const routeFromRows = {
	serviceType: '={{ $json.serviceType }}',
	pickupAddress: '={{ $json.pickupAddress }}',
	pickupLatitude: '={{ $json.pickupLatitude }}',
	pickupLongitude: '={{ $json.pickupLongitude }}',
	dropoffAddress: '={{ $json.dropoffAddress }}',
	dropoffLatitude: '={{ $json.dropoffLatitude }}',
	dropoffLongitude: '={{ $json.dropoffLongitude }}',
};
