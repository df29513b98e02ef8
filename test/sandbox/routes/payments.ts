import { notFound } from '../errors';
import type { RouteDef } from '../router';
import { paymentView } from '../views';

export const paymentRoutes: RouteDef[] = [
	{
		method: 'GET',
		path: '/partner-api/payments/:reference',
		capability: 'partner:read',
		handle(ctx) {
			const payment = ctx.org.payments.get(ctx.params.reference);
			if (!payment) throw notFound('Payment', ctx.params.reference);
			return { status: 200, body: paymentView(payment) };
		},
	},
];
