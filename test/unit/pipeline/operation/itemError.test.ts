import { NodeApiError } from 'n8n-workflow';

import {
	itemError,
	type OperationSpec,
} from '../../../../nodes/PartnerLogistics/pipeline/operation';
import {
	HIDDEN,
	ProblemError,
	type Problem,
} from '../../../../nodes/PartnerLogistics/pipeline/problem';
import { bookingCreate } from '../../../../nodes/PartnerLogistics/resources/booking/create';
import { node } from '../fixtures';

// An item's error names the item from 1 and the field as Booking › Create's form labels it.

const said = (problem: Problem, itemIndex: number, reference?: string) => {
	const spec: OperationSpec = { ...bookingCreate, reference: () => reference };
	const input = { read: () => undefined, item: {} };
	return itemError(spec, input, itemIndex, node, new ProblemError(problem)).message;
};

test('a problem: the item counted from 1, the label first, the API name second', () => {
	expect(said({ field: 'pickupLatitude', value: 120, rule: 'must be between −90 and 90' }, 4)).toBe(
		'Item 5: Pickup Latitude (pickupLatitude) must be between −90 and 90, got 120',
	);
	expect(said({ field: 'quoteId', value: '', rule: 'is required' }, 0)).toBe(
		'Item 1: Quote ID (quoteId) is required, got nothing',
	);
	expect(said({ field: 'stops[2].latitude', value: 'x', rule: 'r' }, 0)).toBe(
		'Item 1: Stop 3 Latitude (stops[2].latitude) r, got "x"',
	);
	expect(said({ field: 'unknownField', value: 1, rule: 'r' }, 0)).toBe(
		'Item 1: unknownField r, got 1',
	);
	expect(said({ field: 'quotedRoute', label: 'Quoted Route', value: 1, rule: 'r' }, 0)).toBe(
		'Item 1: Quoted Route (quotedRoute) r, got 1',
	);
});

test("a problem names the item's own reference, and never repeats a hidden value", () => {
	expect(
		said(
			{ field: 'pickupAddress', value: '', rule: 'is required' },
			9,
			'externalReference ORDER-10045',
		),
	).toBe(
		'Item 10 (externalReference ORDER-10045): Pickup Address (pickupAddress) is required, got nothing',
	);
	expect(said({ field: 'amount', value: HIDDEN, rule: 'must not be sent' }, 0)).toBe(
		'Item 1: amount must not be sent',
	);
});

test("an error that already says what happened keeps its words and learns the item's index", () => {
	const answered = new NodeApiError(
		node,
		{ message: 'Bad Request' },
		{ message: 'The API refused' },
	);
	const failed = itemError(bookingCreate, { read: () => undefined, item: {} }, 3, node, answered);
	expect(failed).toBe(answered);
	expect(failed.message).toBe('The API refused');
	expect(failed.context.itemIndex).toBe(3);
	const other = itemError(
		bookingCreate,
		{ read: () => undefined, item: {} },
		2,
		node,
		new Error('x'),
	);
	expect(other.message).toBe('x');
	expect(other.context.itemIndex).toBe(2);
});
