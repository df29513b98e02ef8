import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** The operations a field shows for, as `displayOptions.show`. */
export type Show = NonNullable<IDisplayOptions['show']>;

/**
 * A required ID. Every ID field reads the incoming item's field of the same name by default (the
 * previous step's output), and says so, so the fields of all operations behave alike.
 */
export function idField(
	name: string,
	displayName: string,
	show: Show,
	description: string,
	example: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: `={{ $json.${name} }}`,
		placeholder: `e.g. ${example}`,
		description,
		hint: `By default the incoming item's ${name} field. Type an ID, or map another field if the previous step names it differently.`,
		displayOptions: { show },
	};
}

/** A label for operations whose path the published API documentation does not show. */
export const INFERRED_PATH =
	'Path not in the published API documentation: inferred from its pattern, confirm with your API contact';

/** Optional raw JSON merged into a body the spec does not show in full. */
export const extraBodyField: INodeProperties = {
	displayName: 'Extra Body Fields (JSON)',
	name: 'extraBody',
	type: 'json',
	default: '{}',
	description:
		'Further fields for the request body, as a JSON object, for fields the published API documentation does not show. A field set above cannot be changed here.',
	hint: 'e.g. {"reason": "Price too high"}',
};

/** Payment method, saved card and (haulage) stage for a payment initiation. */
export function paymentFields(
	show: Show,
	options: { credit: boolean; stage: boolean },
): INodeProperties[] {
	const fields: INodeProperties[] = [];
	if (options.credit) {
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
			displayOptions: { show },
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
		hint: options.credit
			? 'Card details are never sent: the card is charged by its ID'
			: 'Booking payments take a saved card only; CREDIT is not accepted for direct bookings',
		displayOptions: { show: options.credit ? { ...show, paymentMethod: ['SAVED_CARD'] } : show },
	});
	if (options.stage) {
		fields.push({
			displayName: 'Payment Stage',
			name: 'paymentStage',
			type: 'string',
			default: 'UPFRONT',
			placeholder: 'e.g. UPFRONT',
			description: 'Which part of the haulage price to pay',
			hint: 'UPFRONT is the only stage the spec shows; another value the API accepts can be typed',
			displayOptions: { show },
		});
	}
	return fields;
}
