import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OperationSpec } from '../pipeline/operation';
import { compact, HIDDEN, type Problem } from '../pipeline/problem';

/** A payment initiation (booking, GO_BULK, HAUL): its fields, body and rules, per kind. */
export interface PaymentKind {
	/** CREDIT may be chosen (GO_BULK and HAUL quotations issued with credit terms). */
	credit: boolean;
	/** A payment stage is sent (HAUL). */
	stage: boolean;
}

/** Payment method, saved card and (haulage) stage. */
export function paymentFields(kind: PaymentKind): INodeProperties[] {
	const fields: INodeProperties[] = [];
	if (kind.credit) {
		fields.push({
			displayName: 'Payment Method',
			name: 'paymentMethod',
			type: 'options',
			options: [
				{
					name: 'Saved Card',
					value: 'SAVED_CARD',
					description: 'A card saved in the partner dashboard and enabled for API charges',
				},
				{
					name: 'Credit',
					value: 'CREDIT',
					description:
						'Approved partner credit, only where the quotation was issued with credit terms',
				},
			],
			default: 'SAVED_CARD',
			description: 'How to pay',
		});
	}
	fields.push({
		displayName: 'Saved Card ID',
		name: 'paymentMethodId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. pm_card_123',
		description: 'ID of a card saved in the partner dashboard and enabled for API charges',
		hint: kind.credit
			? 'Card details are never sent: the card is charged by its ID'
			: 'Booking payments take a saved card only; CREDIT is not accepted for direct bookings',
		...(kind.credit ? { displayOptions: { show: { paymentMethod: ['SAVED_CARD'] } } } : {}),
	});
	if (kind.stage) {
		fields.push({
			displayName: 'Payment Stage',
			name: 'paymentStage',
			type: 'string',
			default: 'UPFRONT',
			placeholder: 'e.g. UPFRONT',
			description: 'Which part of the haulage price to pay',
			hint: 'UPFRONT is the stage the API documentation names; another value the API accepts can be typed',
		});
	}
	return fields;
}

export function paymentBody(kind: PaymentKind): NonNullable<OperationSpec['body']> {
	return ({ read }) => {
		const method = kind.credit ? (read('paymentMethod') ?? 'SAVED_CARD') : 'SAVED_CARD';
		return compact({
			paymentMethod: method,
			paymentMethodId: method === 'SAVED_CARD' ? read('paymentMethodId') : undefined,
			paymentStage: kind.stage ? read('paymentStage') : undefined,
		});
	};
}

/** The methods the endpoint takes, a card id with SAVED_CARD, and no payment details. */
export function paymentCheck(kind: PaymentKind): NonNullable<OperationSpec['check']> {
	const methods = kind.credit ? ['SAVED_CARD', 'CREDIT'] : ['SAVED_CARD'];
	return (body) => {
		const method = body.paymentMethod;
		if (typeof method !== 'string' || !methods.includes(method)) {
			return {
				field: 'paymentMethod',
				value: method,
				rule: `must be ${methods.length === 1 ? methods[0] : `one of ${methods.join(', ')}`}`,
				hint:
					methods.length === 1
						? 'This payment takes a saved card only: CREDIT is not accepted for direct bookings.'
						: undefined,
			};
		}
		const cardId = body.paymentMethodId;
		if (method === 'SAVED_CARD' && (typeof cardId !== 'string' || cardId.trim() === '')) {
			return {
				field: 'paymentMethodId',
				value: cardId,
				rule: 'is required with SAVED_CARD (the saved card ID)',
			};
		}
		return noPaymentDetails(body);
	};
}

/** Payment fields the spec forbids clients to send, compared without case, `_` or `-`. */
const FORBIDDEN_PAYMENT_FIELDS = Object.values({
	amounts: ['amount', 'totalamount'],
	card: ['card', 'cardnumber', 'pan', 'cvc', 'cvv'],
	expiry: ['expiry', 'expirydate', 'expirymonth', 'expiryyear', 'expmonth', 'expyear'],
	proofs: ['proof', 'paymentproof'],
	providerReferences: ['providerreference', 'providerref', 'providertransactionid'],
	statuses: ['status', 'paymentstatus'],
}).flat();

/** No forbidden payment field at any depth: for payments and credit acceptances alike. */
export function noPaymentDetails(body: IDataObject): Problem | undefined {
	return forbiddenField(body, '');
}

function forbiddenField(value: unknown, path: string): Problem | undefined {
	if (!value || typeof value !== 'object') return undefined;
	for (const [key, inner] of Object.entries(value as IDataObject)) {
		const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
		if (
			!Array.isArray(value) &&
			FORBIDDEN_PAYMENT_FIELDS.includes(key.toLowerCase().replace(/[-_]/g, ''))
		) {
			return {
				field: at,
				value: HIDDEN,
				rule: 'must not be sent',
				hint: 'Clients never send card details, amounts, provider references, payment proofs or payment statuses.',
			};
		}
		const problem = forbiddenField(inner, at);
		if (problem) return problem;
	}
	return undefined;
}
