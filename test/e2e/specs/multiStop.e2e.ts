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

const suite = loadSuite();
const QUOTE = 'Quote a 3-stop CLICK delivery';
const BOOK = 'Book the quote';

// The stops as sent: phones without spaces or dashes, an empty phone left out.
const route = {
	serviceType: 'CLICK',
	orderMode: 'MULTI_STOP',
	stops: [
		{
			type: 'PICKUP',
			address: '12 Allen Avenue, Ikeja, Lagos',
			latitude: 6.6005,
			longitude: 3.3541,
			phone: '+2348031234567',
		},
		{
			type: 'DROPOFF',
			address: '3 Herbert Macaulay Way, Yaba, Lagos',
			latitude: 6.5095,
			longitude: 3.3792,
		},
		{
			type: 'DROPOFF',
			address: '5 Admiralty Way, Lekki, Lagos',
			latitude: 6.4433,
			longitude: 3.4702,
			phone: '+2348095550199',
		},
	],
};
const quoteBody = { ...route, packageDescription: 'Three parcels of documents' };

describe('multi-stop CLICK: a 3-stop quote booked from its output', () => {
	let execution: Execution;
	let requests: LoggedRequest[];

	beforeAll(async () => {
		({ execution, requests } = await runWithRequests(suite, WORKFLOW_IDS.multiStop));
	});

	it('succeeds', () => expectSucceeded(execution));

	it('quotes the three stops as a MULTI_STOP order', () => {
		expect(onlyItem(execution, QUOTE)).toMatchObject({
			quoteId: expect.stringMatching(/^qt_/),
			routeForm: 'MULTI_STOP',
			stops: route.stops,
			quotedRoute: quoteBody,
		});
		expectNodePost(postsTo(requests, /^\/partner-api\/booking-quotes$/)[0], {
			action: 'quote.create',
			apiKey: suite.sandbox.keys.full,
			body: quoteBody,
		});
	});

	it("books the quote with the stops taken from the quote's output", () => {
		const quote = onlyItem(execution, QUOTE);
		expect(onlyItem(execution, BOOK)).toMatchObject({
			bookingId: expect.stringMatching(/^bk_/),
			quoteId: quote.quoteId,
			routeForm: 'MULTI_STOP',
			stops: route.stops,
		});
		const bookings = postsTo(requests, /^\/partner-api\/bookings$/);
		expect(bookings).toHaveLength(1);
		expectNodePost(bookings[0], {
			action: 'booking.create',
			apiKey: suite.sandbox.keys.full,
			body: { ...quoteBody, quoteId: quote.quoteId },
		});
	});
});
