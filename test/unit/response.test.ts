import { readListPage, readRecords } from '../../nodes/PartnerLogistics/pipeline/request/records';

describe('readRecords passes unknown shapes through', () => {
	test('an array gives one record per element', () => {
		expect(readRecords([{ id: 1 }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
	});

	test('an object is one record, untouched', () => {
		const body = { quoteId: 'q', nested: { unknown: [1, 2] } };
		expect(readRecords(body)).toEqual([body]);
	});

	test('values that are not objects are wrapped', () => {
		expect(readRecords('OK')).toEqual([{ value: 'OK' }]);
		expect(readRecords([7, null])).toEqual([{ value: 7 }, {}]);
		expect(readRecords([])).toEqual([]);
	});
});

describe('readListPage', () => {
	test('a bare array is a whole answer', () => {
		expect(readListPage([{ id: 1 }])).toEqual({ records: [{ id: 1 }] });
	});

	test('an object with a list and a cursor reveals the next page', () => {
		expect(readListPage({ items: [{ id: 1 }], nextCursor: 'c2' })).toEqual({
			records: [{ id: 1 }],
			cursor: 'c2',
		});
		expect(readListPage({ data: [], next_cursor: null })).toEqual({
			records: [],
			cursor: undefined,
		});
	});

	test('an object without a known list key is one record', () => {
		expect(readListPage({ total: 3 })).toEqual({ records: [{ total: 3 }] });
	});
});
