import { expectSucceeded, type LoggedRequest, onlyItem, runWithRequests } from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import type { Execution } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

const suite = loadSuite();

describe('GO_BULK: quote request -> operator quotation with credit terms -> get -> pay with CREDIT', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.goBulk));
	});

	it('succeeds', () => expectSucceeded(execution));

	it('creates the request, then reads back the issued quotation with credit terms', () => {
		const created = onlyItem(execution, 'Request a GO_BULK quotation');
		expect(created).toMatchObject({
			quoteRequestId: expect.stringMatching(/^qr_/),
			serviceType: 'GO_BULK',
			status: 'PENDING_QUOTATION',
			quotation: null,
		});
		expect(onlyItem(execution, 'Get the quote request')).toMatchObject({
			quoteRequestId: created.quoteRequestId,
			status: 'QUOTED',
			quotation: expect.objectContaining({ amount: 185000, creditTerms: true, expired: false }),
		});
	});

	it('pays with partner credit, sending no card', async () => {
		const created = onlyItem(execution, 'Request a GO_BULK quotation');
		expect(onlyItem(execution, 'Pay with credit')).toMatchObject({
			reference: expect.stringMatching(/^pay_/),
			paymentMethod: 'CREDIT',
			resourceType: 'QUOTE_REQUEST',
			resourceId: created.quoteRequestId,
		});
		const payment = requests.find((r) => r.path.endsWith('/payment'));
		expect(payment?.body).toEqual({ paymentMethod: 'CREDIT' });
	});
});
