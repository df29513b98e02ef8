import { startSandbox, type Sandbox } from '../sandbox';
import { runWorkflow } from '../harness';
import { clickRoute, credentialsFor, expectOneRequest, rl, runAgainst } from './helpers';

// Every operation of the node, run through n8n's engine against the sandbox: what reaches the
// API (method, path, headers, body, from the sandbox's request log) and what comes out.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

const clickBody = {
	serviceType: 'CLICK',
	pickupAddress: clickRoute.pickupAddress,
	pickupLatitude: clickRoute.pickupLatitude,
	pickupLongitude: clickRoute.pickupLongitude,
	dropoffAddress: clickRoute.dropoffAddress,
	dropoffLatitude: clickRoute.dropoffLatitude,
	dropoffLongitude: clickRoute.dropoffLongitude,
};

describe('direct booking', () => {
	let quote: Record<string, unknown>;
	let booking: Record<string, unknown>;
	let payment: Record<string, unknown>;

	test('Quote › Create sends the route form and outputs the quote plus its quotedRoute', async () => {
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'quote',
			operation: 'create',
			...clickRoute,
			additionalFields: { externalReference: 'ORDER-1', pickupPhone: '+234 803-123 4567' },
		});
		expect(error).toBeUndefined();
		const body = { ...clickBody, externalReference: 'ORDER-1', pickupPhone: '+2348031234567' };
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: '/partner-api/booking-quotes',
			body,
		});
		expect(items).toHaveLength(1);
		quote = items[0];
		// The API's own fields pass through untouched (price, expiresAt are not in the spec).
		expect(quote).toMatchObject({ quoteId: expect.any(String), price: expect.any(Object) });
		expect(quote.quotedRoute).toEqual(body);
	});

	test('Booking › Create books the incoming quote with its route', async () => {
		const { items, error, requests } = await runAgainst(
			sandbox,
			{ resource: 'booking', operation: 'create' },
			{ input: [quote as never] },
		);
		expect(error).toBeUndefined();
		const body = {
			...clickBody,
			externalReference: 'ORDER-1',
			pickupPhone: '+2348031234567',
			quoteId: quote.quoteId,
		};
		expectOneRequest(sandbox, requests, { method: 'POST', path: '/partner-api/bookings', body });
		booking = items[0];
		expect(booking).toMatchObject({ bookingId: expect.any(String), quoteId: quote.quoteId });
	});

	test('Booking › Pay pays with a saved card and nothing else', async () => {
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'booking',
			operation: 'pay',
			bookingId: `={{ "${booking.bookingId}" }}`,
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: `/partner-api/bookings/${booking.bookingId}/payment`,
			body: { paymentMethod: 'SAVED_CARD', paymentMethodId: sandbox.savedCards.enabled },
		});
		payment = items[0];
		expect(payment).toMatchObject({ paymentReference: expect.any(String) });
	});

	test('Payment › Get reads a payment status by reference', async () => {
		sandbox.admin.settlePayment(payment.paymentReference as string);
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'payment',
			operation: 'get',
			reference: payment.paymentReference as string,
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'GET',
			path: `/partner-api/payments/${payment.paymentReference}`,
		});
		expect(items).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
	});

	test('Hub › Get Many lists hubs as items', async () => {
		const { items, requests } = await runAgainst(sandbox, { resource: 'hub', operation: 'getAll' });
		expectOneRequest(sandbox, requests, { method: 'GET', path: '/partner-api/hubs' });
		expect(items.map((hub) => hub.id)).toEqual(sandbox.hubs.active);
	});
});

describe('GO_BULK quote requests', () => {
	let quoteRequestId: string;

	test('Quote Request › Create sends the GO_BULK fields of the chosen ends', async () => {
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			itemDescription: '40 bags of cement',
			quantity: 40,
			pickupMethod: 'HUB_DROPOFF',
			pickupHubId: rl(sandbox.hubs.active[0]),
			dropoffMethod: 'HUB_PICKUP',
			dropoffHubId: rl(sandbox.hubs.active[1], 'id'),
			additionalFields: { specialHandlingRequirement: 'Keep dry' },
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: '/partner-api/quote-requests',
			body: {
				itemDescription: '40 bags of cement',
				quantity: 40,
				pickupMethod: 'HUB_DROPOFF',
				pickupHubId: sandbox.hubs.active[0],
				dropoffMethod: 'HUB_PICKUP',
				dropoffHubId: sandbox.hubs.active[1],
				specialHandlingRequirement: 'Keep dry',
			},
		});
		quoteRequestId = items[0].quoteRequestId as string;
		expect(quoteRequestId).toEqual(expect.any(String));
	});

	test('Quote Request › Get fetches it (inferred path)', async () => {
		sandbox.admin.issueQuoteRequestQuotation(quoteRequestId, { creditTerms: true });
		const { items, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'get',
			quoteRequestId,
		});
		expectOneRequest(sandbox, requests, {
			method: 'GET',
			path: `/partner-api/quote-requests/${quoteRequestId}`,
		});
		expect(items[0]).toMatchObject({ quoteRequestId, quotation: expect.any(Object) });
	});

	test('Quote Request › Pay with CREDIT sends only the payment method', async () => {
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'pay',
			quoteRequestId,
			paymentMethod: 'CREDIT',
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: `/partner-api/quote-requests/${quoteRequestId}/payment`,
			body: { paymentMethod: 'CREDIT' },
		});
		expect(items[0]).toMatchObject({ paymentMethod: 'CREDIT' });
	});

	test('Quote Request › Accept Credit posts to credit-accept with the extra body given', async () => {
		const created = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'create',
			itemDescription: 'Tiles',
		});
		const id = created.items[0].quoteRequestId as string;
		sandbox.admin.issueQuoteRequestQuotation(id, { creditTerms: true });
		const { error, requests } = await runAgainst(sandbox, {
			resource: 'quoteRequest',
			operation: 'acceptCredit',
			quoteRequestId: id,
			additionalFields: { extraBody: '{"note": "approved by finance"}' },
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: `/partner-api/quote-requests/${id}/credit-accept`,
			body: { note: 'approved by finance' },
		});
	});
});

describe('HAUL quotations and tracking', () => {
	let quotationId: string;

	test('Haulage Quotation › Create sends the shipment details as given (inferred path)', async () => {
		const details = { cargo: '20 pallets', pickupAddress: 'Apapa port', dropoffAddress: 'Kano' };
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'create',
			shipmentDetails: JSON.stringify(details),
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: '/partner-api/haulage/quotations',
			body: details,
		});
		quotationId = items[0].quotationId as string;
	});

	test('Haulage Quotation › Get, Accept and Pay', async () => {
		sandbox.admin.issueHaulageQuotation(quotationId);
		const get = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'get',
			quotationId,
		});
		expectOneRequest(sandbox, get.requests, {
			method: 'GET',
			path: `/partner-api/haulage/quotations/${quotationId}`,
		});
		expect(get.items[0]).toMatchObject({ quotationId, status: 'QUOTED' });

		const accept = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'accept',
			quotationId,
		});
		expect(accept.error).toBeUndefined();
		expectOneRequest(sandbox, accept.requests, {
			method: 'POST',
			path: `/partner-api/haulage/quotations/${quotationId}/accept`,
			body: {}, // sent as "{}": n8n's request helper would drop an empty object
		});

		const pay = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'pay',
			quotationId,
			paymentMethod: 'SAVED_CARD',
			paymentMethodId: sandbox.savedCards.enabled,
		});
		expect(pay.error).toBeUndefined();
		expectOneRequest(sandbox, pay.requests, {
			method: 'POST',
			path: `/partner-api/haulage/quotations/${quotationId}/payment`,
			body: {
				paymentMethod: 'SAVED_CARD',
				paymentMethodId: sandbox.savedCards.enabled,
				paymentStage: 'UPFRONT',
			},
		});
	});

	test('Haulage Quotation › Decline and Accept Credit', async () => {
		const ids: string[] = [];
		for (const creditTerms of [false, true]) {
			const created = await runAgainst(sandbox, {
				resource: 'haulageQuotation',
				operation: 'create',
				shipmentDetails: '{"cargo": "steel"}',
			});
			ids.push(created.items[0].quotationId as string);
			sandbox.admin.issueHaulageQuotation(ids[ids.length - 1], { creditTerms });
		}
		const decline = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'decline',
			quotationId: ids[0],
			additionalFields: { extraBody: { reason: 'Price too high' } },
		});
		expect(decline.error).toBeUndefined();
		expectOneRequest(sandbox, decline.requests, {
			method: 'POST',
			path: `/partner-api/haulage/quotations/${ids[0]}/decline`,
			body: { reason: 'Price too high' },
		});
		expect(decline.items[0]).toMatchObject({ status: 'DECLINED' });

		const credit = await runAgainst(sandbox, {
			resource: 'haulageQuotation',
			operation: 'acceptCredit',
			quotationId: ids[1],
		});
		expect(credit.error).toBeUndefined();
		expectOneRequest(sandbox, credit.requests, {
			method: 'POST',
			path: `/partner-api/haulage/quotations/${ids[1]}/credit-accept`,
			body: {}, // sent as "{}": n8n's request helper would drop an empty object
		});
	});

	test('Tracking › Get Trucks, Get Truck and Get Trip', async () => {
		const { assignmentId, tripId } = sandbox.admin.assignHaulage(quotationId);
		const trucks = await runAgainst(sandbox, { resource: 'tracking', operation: 'getTrucks' });
		expectOneRequest(sandbox, trucks.requests, {
			method: 'GET',
			path: '/partner-api/haulage/tracking/trucks',
		});
		expect(trucks.items.map((truck) => truck.assignmentId)).toContain(assignmentId);

		const truck = await runAgainst(sandbox, {
			resource: 'tracking',
			operation: 'getTruck',
			assignmentId,
		});
		expectOneRequest(sandbox, truck.requests, {
			method: 'GET',
			path: `/partner-api/haulage/tracking/trucks/${assignmentId}`,
		});
		expect(truck.items[0]).toMatchObject({ assignmentId });

		const trip = await runAgainst(sandbox, { resource: 'tracking', operation: 'getTrip', tripId });
		expectOneRequest(sandbox, trip.requests, {
			method: 'GET',
			path: `/partner-api/haulage/trips/${tripId}`,
		});
		expect(trip.items[0]).toMatchObject({ tripId });
	});
});

describe('support cases', () => {
	let caseId: string;

	test('Support Case › Create sends the case with metadata as an object', async () => {
		const booking = Object.values(sandbox.admin.state().A.bookings ?? {})[0] as
			| { bookingId: string }
			| undefined;
		const { items, error, requests } = await runAgainst(sandbox, {
			resource: 'supportCase',
			operation: 'create',
			title: 'Parcel not delivered',
			summary: 'Recipient has nothing',
			additionalFields: {
				relatedResourceType: 'BOOKING',
				relatedResourceId: booking?.bookingId,
				metadata: { entry: [{ key: 'orderId', value: 'ORDER-1' }] },
			},
		});
		expect(error).toBeUndefined();
		expectOneRequest(sandbox, requests, {
			method: 'POST',
			path: '/partner-api/support-cases',
			body: {
				title: 'Parcel not delivered',
				summary: 'Recipient has nothing',
				category: 'DELIVERY_ISSUE',
				priority: 'MEDIUM',
				relatedResourceType: 'BOOKING',
				relatedResourceId: booking?.bookingId,
				metadata: { orderId: 'ORDER-1' },
			},
		});
		caseId = items[0].caseId as string;
	});

	test('Support Case › Add Comment, Close and Reopen', async () => {
		const steps = [
			{ operation: 'addComment', path: 'comments', field: 'message', text: 'Any news?' },
			{ operation: 'close', path: 'close', field: 'note', text: 'Found it' },
			{ operation: 'reopen', path: 'reopen', field: 'reason', text: 'Damaged' },
		];
		for (const step of steps) {
			const { error, requests } = await runAgainst(sandbox, {
				resource: 'supportCase',
				operation: step.operation,
				caseId,
				[step.field]: step.text,
			});
			expect(error).toBeUndefined();
			expectOneRequest(sandbox, requests, {
				method: 'POST',
				path: `/partner-api/support-cases/${caseId}/${step.path}`,
				body: { [step.field]: step.text },
			});
		}
	});

	test('Support Case › Get returns the case (inferred path)', async () => {
		const { items, requests } = await runAgainst(sandbox, {
			resource: 'supportCase',
			operation: 'get',
			caseId,
		});
		expectOneRequest(sandbox, requests, {
			method: 'GET',
			path: `/partner-api/support-cases/${caseId}`,
		});
		expect(items[0]).toMatchObject({ caseId, status: 'OPEN' });
	});

	test('Support Case › Get Many filters by status and limits', async () => {
		const { items, requests } = await runAgainst(sandbox, {
			resource: 'supportCase',
			operation: 'getAll',
			limit: 5,
			filters: { status: 'OPEN' },
		});
		expectOneRequest(sandbox, requests, {
			method: 'GET',
			path: '/partner-api/support-cases',
			query: { limit: '5', status: 'OPEN' },
		});
		expect(items.map((item) => item.caseId)).toContain(caseId);
	});
});

test('two nodes in one run: Quote then Booking with no field retyped', async () => {
	sandbox.clearLog();
	const run = await runWorkflow({
		credentials: credentialsFor(sandbox),
		nodes: [
			{
				name: 'Quote',
				parameters: {
					resource: 'quote',
					operation: 'create',
					serviceType: 'EXPRESS',
					packageWeightKg: 2.5,
					pickupMethod: 'HUB_DROPOFF',
					pickupHubId: rl(sandbox.hubs.active[0]),
					dropoffMethod: 'HUB_PICKUP',
					dropoffHubId: rl(sandbox.hubs.active[2]),
				},
			},
			{ name: 'Book', parameters: { resource: 'booking', operation: 'create' } },
		],
	});
	expect(run.error('Book')).toBeUndefined();
	const [quoteRequest, bookingRequest] = sandbox.requests();
	expect(bookingRequest.body).toEqual({
		...(quoteRequest.body as object),
		quoteId: run.output('Quote')[0].json.quoteId,
	});
	expect(quoteRequest.headers['idempotency-key']).not.toEqual(
		bookingRequest.headers['idempotency-key'],
	);
	expect(run.output('Book')[0].json).toMatchObject({ bookingId: expect.any(String) });
});
