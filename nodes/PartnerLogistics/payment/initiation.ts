import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { extraBodyAction, knownValueField, optionsField, textField } from '../descriptions/fields';
import type { OperationSpec } from '../pipeline/operation';
import { compact, HIDDEN, type Problem } from '../pipeline/problem';

/** A payment initiation (booking, GO_BULK, HAUL): may CREDIT be chosen, is a stage sent (HAUL). */
type PaymentKind = { credit: boolean; stage: boolean };

type Request = Pick<OperationSpec, 'fields' | 'method' | 'path' | 'body' | 'check' | 'referent'>;

/** Paying what `id` names (POST <path>/payment), once per referent: a HAUL quotation per stage. */
export function paymentRequest(
	kind: PaymentKind,
	id: INodeProperties,
	path: string,
	extra: INodeProperties[] = [],
): Request & Pick<OperationSpec, 'answers'> {
	return {
		fields: [id, ...paymentFields(kind), ...extra],
		method: 'POST',
		path: `${path}/payment`,
		body: ({ read }) => {
			const method = kind.credit ? (read('paymentMethod') ?? 'SAVED_CARD') : 'SAVED_CARD';
			return compact({
				paymentMethod: method,
				paymentMethodId: method === 'SAVED_CARD' ? read('paymentMethodId') : undefined,
				paymentStage: kind.stage ? read('paymentStage') : undefined,
			});
		},
		check: (body) => {
			const { paymentMethod: method, paymentMethodId: cardId } = body;
			if (method !== 'SAVED_CARD' && (!kind.credit || method !== 'CREDIT')) {
				const problem = { field: 'paymentMethod', value: method };
				if (kind.credit) return { ...problem, rule: 'must be one of SAVED_CARD, CREDIT' };
				const hint =
					'This payment takes a saved card only: CREDIT is not accepted for direct bookings.';
				return { ...problem, rule: 'must be SAVED_CARD', hint };
			}
			if (method === 'SAVED_CARD' && (typeof cardId !== 'string' || cardId.trim() === '')) {
				const rule = 'is required with SAVED_CARD (the saved card ID)';
				return { field: 'paymentMethodId', value: cardId, rule };
			}
			return noPaymentDetails(body);
		},
		referent: kind.stage ? [id.name, 'paymentStage'] : [id.name],
		answers: ['reference'],
	};
}

/** Accepting the credit a quotation offers (POST <path>/credit-accept): never payment details. */
export const creditAcceptance = (id: INodeProperties, path: string): Request => ({
	...extraBodyAction(id, `${path}/credit-accept`),
	check: (body) => noPaymentDetails(body),
});

function paymentFields({ credit, stage }: PaymentKind): INodeProperties[] {
	const method = optionsField('paymentMethod', 'Payment Method', 'How to pay', [
		[
			'Saved Card',
			'SAVED_CARD',
			'A card saved in the partner dashboard and enabled for API charges',
		],
		[
			'Credit',
			'CREDIT',
			'Approved partner credit, only where the quotation was issued with credit terms',
		],
	]);
	const card = textField(
		'paymentMethodId',
		'Saved Card ID',
		'ID of a card saved in the partner dashboard and enabled for API charges',
		'pm_card_123',
		{
			required: true,
			hint: credit
				? 'Card details are never sent: the card is charged by its ID'
				: 'Booking payments take a saved card only; CREDIT is not accepted for direct bookings',
			...(credit ? { displayOptions: { show: { paymentMethod: ['SAVED_CARD'] } } } : {}),
		},
	);
	const stageField = knownValueField(
		'paymentStage',
		'Payment Stage',
		'Which part of the haulage price to pay',
		'UPFRONT',
	);
	return [...(credit ? [method] : []), card, ...(stage ? [stageField] : [])];
}

/** Payment fields the spec forbids clients to send, compared without case, `_` or `-`. */
const FORBIDDEN_PAYMENT_FIELDS = (
	'amount totalamount card cardnumber pan cvc cvv expiry expirydate expirymonth expiryyear ' +
	'expmonth expyear proof paymentproof providerreference providerref providertransactionid ' +
	'status paymentstatus'
).split(' ');

/** No forbidden payment field at any depth: for payments and credit acceptances alike. */
function noPaymentDetails(value: unknown, path = ''): Problem | undefined {
	if (!value || typeof value !== 'object') return undefined;
	for (const [name, inner] of Object.entries(value as IDataObject)) {
		const at = Array.isArray(value) ? `${path}[${name}]` : path ? `${path}.${name}` : name;
		if (
			!Array.isArray(value) &&
			FORBIDDEN_PAYMENT_FIELDS.includes(name.toLowerCase().replace(/[-_]/g, ''))
		) {
			return {
				field: at,
				value: HIDDEN,
				rule: 'must not be sent',
				hint: 'Clients never send card details, amounts, provider references, payment proofs or payment statuses.',
			};
		}
		const problem = noPaymentDetails(inner, at);
		if (problem) return problem;
	}
	return undefined;
}
