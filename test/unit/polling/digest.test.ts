import {
	canonicalJson,
	fieldDigests,
	recordDigest,
} from '../../../nodes/PartnerLogistics/polling/changes';

describe('the digest of a record', () => {
	test('does not depend on the order of fields, at any depth', () => {
		expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
			'{"a":{"c":null,"d":[1,{"e":3,"f":2}]},"b":1}',
		);
		expect(recordDigest({ a: 1, b: { c: 2, d: 3 } })).toBe(
			recordDigest({ b: { d: 3, c: 2 }, a: 1 }),
		);
	});

	test('changes with any value, the order of a list, or a field added', () => {
		const base = recordDigest({ status: 'OPEN', tags: ['a', 'b'] });
		expect(recordDigest({ status: 'CLOSED', tags: ['a', 'b'] })).not.toBe(base);
		expect(recordDigest({ status: 'OPEN', tags: ['b', 'a'] })).not.toBe(base);
		expect(recordDigest({ status: 'OPEN', tags: ['a', 'b'], note: null })).not.toBe(base);
		expect(recordDigest({ status: 'OPEN', tags: ['a', 'b'] })).toBe(base);
	});

	test('tells "1" from 1', () => {
		expect(recordDigest({ n: 1 })).not.toBe(recordDigest({ n: '1' }));
	});

	test('has a short digest per top-level field', () => {
		const digests = fieldDigests({ status: 'OPEN', meta: { a: 1 } });
		expect(Object.keys(digests)).toEqual(['status', 'meta']);
		expect(digests.status).toHaveLength(12);
		expect(fieldDigests({ meta: { a: 1 } }).meta).toBe(digests.meta);
	});
});
