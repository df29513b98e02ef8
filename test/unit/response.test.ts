import { readListPage, toItems } from '../../nodes/PartnerLogistics/shared/response';

describe('toItems passes unknown shapes through', () => {
	test('an array gives one item per element', () => {
		expect(toItems([{ json: [{ id: 1 }, { id: 2 }] as never }])).toEqual([
			{ json: { id: 1 } },
			{ json: { id: 2 } },
		]);
	});

	test('an object is one item, untouched', () => {
		const body = { quoteId: 'q', nested: { unknown: [1, 2] } };
		expect(toItems([{ json: body }])).toEqual([{ json: body }]);
	});

	test('values that are not objects are wrapped, empty bodies are empty items', () => {
		expect(
			toItems([{ json: 'OK' as never }, { json: '' as never }, { json: [7] as never }]),
		).toEqual([{ json: { value: 'OK' } }, { json: {} }, { json: { value: 7 } }]);
	});

	test('an empty array gives no items', () => {
		expect(toItems([{ json: [] as never }])).toEqual([]);
	});
});

describe('readListPage', () => {
	test('a bare array is a whole answer', () => {
		expect(readListPage([{ id: 1 }])).toEqual({ items: [{ id: 1 }] });
	});

	test('an object with a list and a cursor reveals the next page', () => {
		expect(readListPage({ items: [{ id: 1 }], nextCursor: 'c2' })).toEqual({
			items: [{ id: 1 }],
			cursor: 'c2',
		});
		expect(readListPage({ data: [], next_cursor: null })).toEqual({ items: [], cursor: undefined });
	});

	test('an object without a known list key is one item', () => {
		expect(readListPage({ total: 3 })).toEqual({ items: [{ total: 3 }] });
	});
});
