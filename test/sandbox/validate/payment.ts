// Payment initiation bodies: how to pay, never what to pay (amounts, cards, proofs, statuses).
import { invalid } from '../errors';
import type { SavedCard } from '../fixtures';
import { isJsonObject, isPresent, type JsonObject, optionalEnum, requiredString } from './fields';

/** Normalized key (lower case, no _ or -) -> what the spec forbids clients to send. */
const FORBIDDEN_KEYS: Record<string, string> = {
	amount: 'amounts',
	totalamount: 'amounts',
	currency: 'amounts',
	card: 'card details',
	cardnumber: 'card details',
	pan: 'card details',
	cvc: 'card details',
	cvv: 'card details',
	cvv2: 'card details',
	expiry: 'card details',
	expirydate: 'card details',
	expirymonth: 'card details',
	expiryyear: 'card details',
	expmonth: 'card details',
	expyear: 'card details',
	cardholdername: 'card details',
	proof: 'payment proofs',
	paymentproof: 'payment proofs',
	providerreference: 'provider references',
	providerref: 'provider references',
	providertransactionid: 'provider references',
	status: 'payment statuses',
	paymentstatus: 'payment statuses',
};

function findForbidden(value: unknown, path: string): { path: string; kind: string } | undefined {
	if (Array.isArray(value)) {
		for (const [i, child] of value.entries()) {
			const found = findForbidden(child, `${path}[${i}]`);
			if (found) return found;
		}
		return undefined;
	}
	if (!isJsonObject(value)) return undefined;
	for (const [key, child] of Object.entries(value)) {
		const at = path ? `${path}.${key}` : key;
		const kind = FORBIDDEN_KEYS[key.toLowerCase().replace(/[_-]/g, '')];
		if (kind) return { path: at, kind };
		const found = findForbidden(child, at);
		if (found) return found;
	}
	return undefined;
}

/** Anywhere in the body, at any depth. */
export function rejectForbiddenPaymentFields(body: JsonObject): void {
	const found = findForbidden(body, '');
	if (!found) return;
	throw invalid(
		found.path,
		`${found.path} must not be sent: clients never send ${found.kind}. The amount comes from the quote or quotation; pay with paymentMethod and a saved card id, or with approved credit.`,
		'FORBIDDEN_PAYMENT_FIELD',
	);
}

export type PaymentMethod = 'SAVED_CARD' | 'CREDIT';

export interface PaymentChoice {
	paymentMethod: PaymentMethod;
	paymentMethodId?: string;
	paymentStage?: 'UPFRONT';
}

export interface PaymentRules {
	/** Booking invoices cannot be paid on credit. */
	creditAccepted: boolean;
	/** Only haulage payments carry paymentStage. */
	stageAccepted: boolean;
	cards: readonly SavedCard[];
}

export function readPaymentBody(body: JsonObject, rules: PaymentRules): PaymentChoice {
	rejectForbiddenPaymentFields(body);
	const allowed: PaymentMethod[] = rules.creditAccepted ? ['SAVED_CARD', 'CREDIT'] : ['SAVED_CARD'];
	if (!rules.creditAccepted && body.paymentMethod === 'CREDIT') {
		throw invalid(
			'paymentMethod',
			'CREDIT is not accepted for direct booking payments; pay with SAVED_CARD and a paymentMethodId.',
			'CREDIT_NOT_ALLOWED',
		);
	}
	const paymentMethod = optionalEnum(body.paymentMethod, 'paymentMethod', allowed);
	if (!paymentMethod) {
		throw invalid('paymentMethod', `paymentMethod is required (${allowed.join(' or ')}).`);
	}
	const choice: PaymentChoice = { paymentMethod };

	if (rules.stageAccepted) {
		choice.paymentStage = optionalEnum(body.paymentStage, 'paymentStage', ['UPFRONT']) ?? 'UPFRONT';
	} else if (isPresent(body.paymentStage)) {
		throw invalid('paymentStage', 'paymentStage is only used in haulage payments; remove it.');
	}

	if (paymentMethod === 'CREDIT') {
		if (isPresent(body.paymentMethodId)) {
			throw invalid(
				'paymentMethodId',
				'paymentMethodId is only sent with SAVED_CARD; remove it for CREDIT.',
			);
		}
		return choice;
	}
	const id = requiredString(
		body.paymentMethodId,
		'paymentMethodId',
		'when paymentMethod is SAVED_CARD',
	);
	const card = rules.cards.find((c) => c.paymentMethodId === id);
	if (!card) {
		throw invalid(
			'paymentMethodId',
			`paymentMethodId ${JSON.stringify(id)} is not a saved card of this organization; save the card in the partner dashboard first.`,
			'PAYMENT_METHOD_NOT_FOUND',
		);
	}
	if (!card.apiChargesEnabled) {
		throw invalid(
			'paymentMethodId',
			`Saved card ${id} is not enabled for API charges; enable it in the partner dashboard or use another card.`,
			'PAYMENT_METHOD_NOT_ENABLED',
		);
	}
	return { ...choice, paymentMethodId: id };
}
