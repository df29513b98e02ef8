import {
	expectNodePost,
	expectSucceeded,
	type LoggedRequest,
	onlyItem,
	postsTo,
	runWithRequests,
} from '../lib/assertions';
import { WORKFLOW_IDS } from '../lib/fixtures';
import type { Execution } from '../lib/n8nApi';
import { loadSuite } from '../lib/suiteContext';

// Booking › Create with Route = Define Below: the route is entered in the booking node again (the
// hub from the picker's list mode) and must match the quote it books.
const suite = loadSuite();
const QUOTE = 'Quote an EXPRESS delivery from a hub';
const BOOK = 'Book with the route typed in';

const route = {
	serviceType: 'EXPRESS',
	packageWeightKg: 2.5,
	pickupMethod: 'HUB_DROPOFF',
	pickupHubId: 'hub_lag_ikeja',
	dropoffMethod: 'HOME_DELIVERY',
	dropoffAddress: '20 Awolowo Road, Ikoyi, Lagos',
	dropoffLatitude: 6.4474,
	dropoffLongitude: 3.4167,
};

describe('Booking › Create with the route typed in (Define Below)', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.bookingTypedIn));
	});

	it('succeeds', () => expectSucceeded(execution));

	it('quotes an EXPRESS parcel from the hub chosen in the list to a home address', () => {
		expect(onlyItem(execution, QUOTE)).toMatchObject({
			quoteId: expect.stringMatching(/^qt_/),
			routeForm: 'HUB_TO_HOME',
			...route,
		});
	});

	it("books it, sending the booking's own route fields and Additional Fields", () => {
		const quote = onlyItem(execution, QUOTE);
		expect(onlyItem(execution, BOOK)).toMatchObject({
			bookingId: expect.stringMatching(/^bk_/),
			quoteId: quote.quoteId,
			routeForm: 'HUB_TO_HOME',
			dropoffPhone: '+2348037654321',
		});
		const bookings = postsTo(requests, /^\/partner-api\/bookings$/);
		expect(bookings).toHaveLength(1);
		expectNodePost(bookings[0], {
			action: 'booking.create',
			apiKey: suite.sandbox.keys.full,
			body: {
				...route,
				externalReference: 'ORD-2001',
				dropoffPhone: '+2348037654321',
				quoteId: quote.quoteId,
			},
		});
	});
});
