import {
	expectNodePost,
	expectSucceeded,
	type LoggedRequest,
	onlyItem,
	runWithRequests,
} from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import type { Execution } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// Quote Request › Accept Credit, Haulage Quotation › Accept Credit and › Decline, each after the
// sandbox operator issued a quotation (with credit terms for the first two).
const suite = loadSuite();

describe('answering operator quotations: accept credit terms, decline', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	const postTo = (path: string) =>
		requests.filter((request) => request.method === 'POST' && request.path === path);

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.quotationAnswers));
	});

	it('succeeds', () => expectSucceeded(execution));

	it('accepts the credit terms of a GO_BULK quotation', () => {
		const created = onlyItem(execution, 'Request a GO_BULK quotation');
		expect(onlyItem(execution, 'Accept the GO_BULK credit terms')).toMatchObject({
			quoteRequestId: created.quoteRequestId,
			status: 'CREDIT_ACCEPTED',
			quotation: expect.objectContaining({ amount: 240000, creditTerms: true }),
		});
		const posts = postTo(`/partner-api/quote-requests/${created.quoteRequestId}/credit-accept`);
		expect(posts).toHaveLength(1);
		// No fields: the node sends the JSON text {} (n8n would drop an empty object, sending nothing).
		expectNodePost(posts[0], {
			action: 'quoteRequest.acceptCredit',
			apiKey: suite.sandbox.keys.full,
			body: {},
		});
	});

	it('accepts the credit terms of a HAUL quotation', () => {
		const created = onlyItem(execution, 'Request a HAUL quotation');
		expect(onlyItem(execution, 'Accept the HAUL credit terms')).toMatchObject({
			quotationId: created.quotationId,
			status: 'CREDIT_ACCEPTED',
			quotation: expect.objectContaining({ amount: 420000, creditTerms: true }),
		});
		const posts = postTo(`/partner-api/haulage/quotations/${created.quotationId}/credit-accept`);
		expect(posts).toHaveLength(1);
		expectNodePost(posts[0], {
			action: 'haulageQuotation.acceptCredit',
			apiKey: suite.sandbox.keys.full,
			body: {},
		});
	});

	it('declines the other HAUL quotation', () => {
		const created = onlyItem(execution, 'Request another HAUL quotation');
		expect(onlyItem(execution, 'Decline the HAUL quotation')).toMatchObject({
			quotationId: created.quotationId,
			status: 'DECLINED',
		});
		const posts = postTo(`/partner-api/haulage/quotations/${created.quotationId}/decline`);
		expect(posts).toHaveLength(1);
		expectNodePost(posts[0], {
			action: 'haulageQuotation.decline',
			apiKey: suite.sandbox.keys.full,
			body: {},
		});
	});

	it('left the sandbox in those states, with no payment for credit accepted', async () => {
		const state = await suite.admin.stateOfOrgA();
		const goBulk = onlyItem(execution, 'Request a GO_BULK quotation').quoteRequestId;
		const haul = onlyItem(execution, 'Request a HAUL quotation').quotationId;
		const declined = onlyItem(execution, 'Request another HAUL quotation').quotationId;
		expect(state.quoteRequests.find((r) => r.quoteRequestId === goBulk)?.status).toBe(
			'CREDIT_ACCEPTED',
		);
		const statusOf = (id: unknown) =>
			state.haulageQuotations.find((q) => q.quotationId === id)?.status;
		expect([statusOf(haul), statusOf(declined)]).toEqual(['CREDIT_ACCEPTED', 'DECLINED']);
		const paid = state.payments.map((payment) => payment.resourceId);
		expect(paid).not.toContain(goBulk);
		expect(paid).not.toContain(haul);
	});
});
