// CLICK, GO_LIGHT and EXPRESS: quote, book the quote once, pay the booking with a saved card.
import { conflict, invalid, notFound } from '../errors';
import { priceRoute } from '../pricing';
import type { RouteDef } from '../router';
import type { BookingRecord, QuoteRecord } from '../store';
import { bookingView, iso, paymentView, quoteView } from '../views';
import { requiredString } from '../validate/fields';
import { readPaymentBody } from '../validate/payment';
import { firstRouteDifference, validateDirectRoute } from '../validate/route';
import { assertNoLivePayment, startPayment } from './payable';

export const directBookingRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: '/partner-api/booking-quotes',
		capability: 'partner:write',
		handle(ctx) {
			const { form, route, options } = validateDirectRoute(ctx.body);
			const quote: QuoteRecord = {
				quoteId: ctx.core.store.nextId('qt'),
				form,
				route,
				options,
				price: priceRoute(route),
				createdAt: ctx.now,
				expiresAt: ctx.now + ctx.core.settings.quoteTtlMs,
			};
			ctx.org.quotes.set(quote.quoteId, quote);
			return { status: 201, body: quoteView(quote, ctx.now) };
		},
	},
	{
		method: 'POST',
		path: '/partner-api/bookings',
		capability: 'partner:write',
		handle(ctx) {
			const quoteId = requiredString(ctx.body.quoteId, 'quoteId');
			const { form, route, options } = validateDirectRoute(ctx.body);
			const quote = ctx.org.quotes.get(quoteId);
			if (!quote) throw notFound('Quote', quoteId);
			if (quote.bookingId && !ctx.core.settings.repeatActions) {
				throw conflict(
					'QUOTE_ALREADY_BOOKED',
					`Quote ${quoteId} was already booked as ${quote.bookingId}; get a new quote for another booking.`,
				);
			}
			if (ctx.now >= quote.expiresAt) {
				throw conflict(
					'QUOTE_EXPIRED',
					`Quote ${quoteId} expired at ${iso(quote.expiresAt)}; get a new quote and book it before it expires.`,
				);
			}
			const diff = firstRouteDifference(quote.route, route);
			if (diff) {
				throw invalid(
					diff.field,
					`${diff.field} differs from quote ${quoteId} (quoted ${JSON.stringify(diff.quoted)}, sent ${JSON.stringify(diff.sent)}); a booking must repeat the quoted route fields exactly.`,
					'ROUTE_MISMATCH',
				);
			}
			const booking: BookingRecord = {
				bookingId: ctx.core.store.nextId('bk'),
				quoteId,
				form,
				route,
				options,
				price: quote.price,
				status: 'AWAITING_PAYMENT',
				paymentStatus: 'UNPAID',
				createdAt: ctx.now,
				updatedAt: ctx.now,
			};
			quote.bookingId = booking.bookingId;
			ctx.org.bookings.set(booking.bookingId, booking);
			return { status: 201, body: bookingView(booking) };
		},
	},
	{
		method: 'POST',
		path: '/partner-api/bookings/:bookingId/payment',
		capability: 'partner:write',
		handle(ctx) {
			const { bookingId } = ctx.params;
			const booking = ctx.org.bookings.get(bookingId);
			if (!booking) throw notFound('Booking', bookingId);
			const choice = readPaymentBody(ctx.body, {
				creditAccepted: false,
				stageAccepted: false,
				cards: ctx.org.savedCards,
			});
			assertNoLivePayment(ctx, booking, `Booking ${bookingId}`);
			const payment = startPayment(
				ctx,
				booking,
				{ type: 'BOOKING', id: bookingId },
				choice,
				booking.price,
			);
			return { status: 201, body: paymentView(payment) };
		},
	},
];
