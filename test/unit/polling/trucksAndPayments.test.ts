import { HOME_DROPOFF, HOME_PICKUP } from '../../sandbox/routeForms';
import { startPollHarness } from '../../harness/poll';
import { credentialsOf, useSandbox } from './helpers';

// Assigned trucks and payments by reference, in n8n-core's PollContext against the sandbox.

const context = useSandbox();
let sandbox: typeof context.sandbox;
let api: typeof context.api;
beforeAll(() => ({ sandbox, api } = context));

describe('watching assigned trucks', () => {
	test('a truck assigned after the first poll is new once', async () => {
		const trigger = startPollHarness({
			parameters: { watch: 'truck' },
			credentials: credentialsOf(sandbox),
		});
		expect(await trigger.activate()).toEqual({ items: null });
		const quotation = (await api.post('/partner-api/haulage/quotations', { cargo: { tonnes: 20 } }))
			.body;
		sandbox.admin.issueHaulageQuotation(quotation.quotationId);
		expect(
			(await api.post(`/partner-api/haulage/quotations/${quotation.quotationId}/accept`)).status,
		).toBe(200);
		const { assignmentId } = sandbox.admin.assignHaulage(quotation.quotationId);

		expect((await trigger.poll()).items).toEqual([
			{
				change: 'new',
				recordId: assignmentId,
				changedFields: [],
				record: expect.objectContaining({ assignmentId, quotationId: quotation.quotationId }),
			},
		]);
		expect((await trigger.poll()).items).toBeNull();
		expect(sandbox.requests({ method: 'GET' }).map((r) => r.path)).toContain(
			'/partner-api/haulage/tracking/trucks',
		);
	});
});

describe('watching payments by reference', () => {
	async function pendingPayment(): Promise<string> {
		const route = { ...HOME_PICKUP, ...HOME_DROPOFF };
		const quote = (await api.post('/partner-api/booking-quotes', route)).body;
		const booking = (await api.post('/partner-api/bookings', { ...route, quoteId: quote.quoteId }))
			.body;
		const payment = await api.post(`/partner-api/bookings/${booking.bookingId}/payment`, {
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(payment.status).toBe(201);
		return payment.body.paymentReference;
	}

	const watchPayments = (references: unknown) =>
		startPollHarness({
			parameters: { watch: 'payment', references },
			credentials: credentialsOf(sandbox),
		} as never);

	test('a settled payment is changed once; one added to the list is new', async () => {
		const [first, second] = [await pendingPayment(), await pendingPayment()];
		const trigger = watchPayments(`${first}, ${first}`);
		await trigger.activate();
		sandbox.admin.settlePayment(first);
		const settled = await trigger.poll();
		expect(settled.items).toEqual([
			{
				change: 'changed',
				recordId: first,
				changedFields: ['status', 'updatedAt'],
				record: expect.objectContaining({ reference: first, status: 'SUCCEEDED' }),
			},
		]);
		expect((await trigger.poll()).items).toBeNull();

		// The list changed and the workflow was published again: its first poll sees the new one.
		trigger.setParameters({ watch: 'payment', references: `={{ ["${first}", "${second}"] }}` });
		expect((await trigger.activate()).items).toMatchObject([
			{ change: 'new', recordId: second, record: { status: 'PENDING' } },
		]);
		expect(sandbox.requests({ method: 'GET' }).map((r) => r.path)).toContain(
			`/partner-api/payments/${second}`,
		);
	});

	test('a reference the API does not know is reported once; the others go on', async () => {
		const known = await pendingPayment();
		const trigger = watchPayments(known);
		await trigger.activate();
		sandbox.admin.settlePayment(known);
		trigger.setParameters({ watch: 'payment', references: `${known} pay_unknown` });
		const result = await trigger.restart();
		expect(result.items).toEqual([
			expect.objectContaining({ change: 'changed', recordId: known }),
			{
				change: 'notFound',
				recordId: 'pay_unknown',
				changedFields: [],
				record: {},
				message: expect.stringMatching(
					/^Could not check payment pay_unknown: Not found in your organization \(404\)/,
				),
			},
		]);
		expect((await trigger.poll()).items).toBeNull();
	});
});
