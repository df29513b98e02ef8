import type { NodeOperationError } from 'n8n-workflow';

import {
	refuseLeftover,
	previewNote,
	previewSource,
	standIn,
	standInOf,
} from '../../../nodes/PartnerLogistics/pipeline/dryRun';
import { node } from './fixtures';

// Dry Run's plain logic: stand-ins, a preview's note, and what a node with Dry Run off refuses.

const quoteId = standIn('quoteId', 0, 'Quote');
const preview = {
	request: 'POST https://api/x',
	dryRun: previewNote({ url: '/quotes' }, ['quoteId'], { node: 'Quote', item: {}, given: false }),
};

describe('stand-ins', () => {
	test('say what they stand in for and which node made them, in no shape an id has', () => {
		expect(quoteId).toBe('[dry run: quoteId of item 1 from "Quote"]');
		expect(standIn('bookingId', 2, 'Book "B"')).toBe(
			`[dry run: bookingId of item 3 from "Book 'B'"]`,
		);
	});

	test('are found in a URL-encoded path, the query and a JSON body', () => {
		const found = { id: 'quoteId', node: 'Quote' };
		expect(standInOf({ url: `/bookings/${encodeURIComponent(quoteId)}/payment` })).toEqual(found);
		expect(standInOf({ url: '/payments', qs: { ref: quoteId } })).toEqual(found);
		expect(standInOf({ url: '/bookings', body: { quoteId } })).toEqual(found);
		expect(standInOf({ url: '/bookings', body: { quoteId: 'qt_1', note: '[dry run]' } })).toBe(
			undefined,
		);
		expect(standInOf({ url: '/bookings/%E0%A4%A' })).toBe(undefined);
	});
});

describe('a preview item', () => {
	test('is recognised by its note, not by a field of the user named dryRun', () => {
		expect(previewSource(preview)).toBe('Quote');
		expect(previewSource({ dryRun: true })).toBe(undefined);
		expect(previewSource({ dryRun: 'yes' })).toBe(undefined);
	});

	test("its note says what the key is made of, in the user's words", () => {
		const facts = { node: 'Book', item: {}, given: false };
		const keyed = { url: '/bookings', idempotencyKey: 'k' };
		const note = (request: Parameters<typeof previewNote>[0], changed = {}) =>
			previewNote(request, [], { ...facts, ...changed });
		expect(note({ ...keyed, referent: 'Quote ID qt_7' })).toBe(
			'Nothing was sent: Dry Run is on in node "Book". A real run sends this Idempotency-Key, made of the API, this action and Quote ID qt_7: the same in every execution.',
		);
		expect(note({ ...keyed, referent: `Quote ID ${quoteId}`, body: { quoteId } })).toBe(
			'Nothing was sent: Dry Run is on in node "Book". quoteId is a stand-in from "Quote": a real run sends the real quoteId and keys by it. Its Idempotency-Key is made of stand-ins: a real run sends another.',
		);
		expect(note(keyed, { item: preview })).toContain(
			'Its Idempotency-Key is made of stand-ins: a real run sends another.',
		);
		expect(note(keyed, { given: true })).toContain('(Options › Idempotency Key)');
		expect(note({ url: '/bookings' })).toBe('Nothing was sent: Dry Run is on in node "Book".');
	});
});

describe('with Dry Run off', () => {
	/** What refuseLeftover throws, if anything. */
	const refusal = (leftover: Parameters<typeof refuseLeftover>[2], itemIndex = 0) => {
		try {
			refuseLeftover(node, itemIndex, leftover);
		} catch (error) {
			return error as NodeOperationError;
		}
		return undefined;
	};

	test('an ordinary item goes on', () => {
		const request = { url: '/bookings', body: { quoteId: 'qt_1' } };
		expect(refusal({ item: { quoteId: 'qt_1' }, request })).toBe(undefined);
	});

	test('a preview or a stand-in is refused, naming the node to switch, within 120 characters', () => {
		expect(refusal({ item: preview })?.message).toBe(
			'Item 1 is a Dry Run preview from "Quote": turn off Dry Run there',
		);
		expect(refusal({ request: { url: '/bookings', body: { quoteId } } }, 4)?.message).toBe(
			'Item 5 sends quoteId as a Dry Run stand-in from "Quote": turn off Dry Run there',
		);
		const long = standIn('quoteId', 0, 'Q'.repeat(200));
		const refused = refusal({ request: { url: '/bookings', body: { quoteId: long } } });
		expect(refused?.message).toHaveLength(120);
		expect(refused?.context.itemIndex).toBe(0);
		expect(refused?.description).toContain(
			`Node "${'Q'.repeat(200)}" ran with Options › Dry Run on`,
		);
	});
});
