import type { BodyBuilder, BodyCheck } from './body';
import { compact } from './routeBody';
import { validatePayment } from './validate';

/**
 * The body of a payment initiation: the fields the spec shows and nothing else (never an amount,
 * card detail, proof, provider reference or status). Booking payments are SAVED_CARD only.
 */
export function paymentBody(options: { credit: boolean; stage: boolean }): BodyBuilder {
	return ({ read }) => {
		const method = options.credit ? (read('paymentMethod') ?? 'SAVED_CARD') : 'SAVED_CARD';
		return compact({
			paymentMethod: method,
			paymentMethodId: method === 'SAVED_CARD' ? read('paymentMethodId') : undefined,
			paymentStage: options.stage ? read('paymentStage') : undefined,
		});
	};
}

export function paymentCheck(methods: string[]): BodyCheck {
	return (body) => validatePayment(body, methods);
}
