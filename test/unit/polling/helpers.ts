import type { INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { type ApiClient, apiClient } from '../../sandbox/apiClient';
import { startPollHarness } from '../../harness/poll';

/**
 * A sandbox per test file, reset before each test (the support case watch lists every OPEN case
 * of the organization), and the steps the tests take on it through the partner API.
 */
export function useSandbox() {
	const context = {} as { sandbox: Sandbox; api: ApiClient };
	beforeAll(async () => {
		context.sandbox = await startSandbox();
		context.api = apiClient(context.sandbox);
	});
	afterAll(async () => await context.sandbox.close());
	beforeEach(() => context.sandbox.admin.reset());
	return context;
}

export const credentialsOf = (sandbox: Sandbox, key = sandbox.keys.full) => ({
	baseUrl: sandbox.url,
	apiKey: key,
});

/** A polling trigger watching support cases (OPEN unless `status` says otherwise). */
export const watchCases = (sandbox: Sandbox, extra: INodeParameters = {}) =>
	startPollHarness({
		parameters: { watch: 'supportCase', ...extra },
		credentials: credentialsOf(sandbox),
	});

export async function openCase(api: ApiClient, title: string): Promise<string> {
	const created = await api.post('/partner-api/support-cases', {
		title,
		category: 'DELIVERY_ISSUE',
	});
	expect(created.status).toBe(201);
	return created.body.caseId;
}

export async function comment(api: ApiClient, caseId: string, message: string) {
	const answer = await api.post(`/partner-api/support-cases/${caseId}/comments`, { message });
	expect(answer.status).toBe(201);
}

/** A GO_BULK quote request, as Quote Request › Create makes it. */
export async function requestQuotation(
	api: ApiClient,
	itemDescription = 'Cement',
): Promise<string> {
	const created = await api.post('/partner-api/quote-requests', { itemDescription, quantity: 40 });
	expect(created.status).toBe(201);
	return created.body.quoteRequestId;
}

/** A HAUL quotation request, as Haulage Quotation › Create makes it. */
export async function requestHaulage(api: ApiClient): Promise<string> {
	const created = await api.post('/partner-api/haulage/quotations', { cargo: { tonnes: 20 } });
	expect(created.status).toBe(201);
	return created.body.quotationId;
}

/** A HAUL quotation quoted, accepted and assigned a truck: its truck assignment and trip. */
export async function assignedHaulage(sandbox: Sandbox, api: ApiClient) {
	const quotationId = await requestHaulage(api);
	sandbox.admin.issueHaulageQuotation(quotationId);
	expect((await api.post(`/partner-api/haulage/quotations/${quotationId}/accept`)).status).toBe(
		200,
	);
	return { quotationId, ...sandbox.admin.assignHaulage(quotationId) };
}

/** A polling trigger watching the IDs listed, by Trigger On `watch`. */
export const watchIds = (
	sandbox: Sandbox,
	watch: string,
	parameter: string,
	ids: unknown,
	extra: INodeParameters = {},
) =>
	startPollHarness({
		parameters: { watch, [parameter]: ids, ...extra } as INodeParameters,
		credentials: credentialsOf(sandbox),
	});
