import {
	batchExpression,
	expressionLeaves,
	isBatchable,
	withValues,
} from '../../nodes/PartnerLogistics/pipeline/expressions';

describe('expressionLeaves: which stored values can join a batch', () => {
	test('a value without an expression has none', () => {
		expect(expressionLeaves('Lekki')).toEqual([]);
		expect(expressionLeaves(6.45)).toEqual([]);
		expect(expressionLeaves(undefined)).toEqual([]);
		expect(expressionLeaves({ externalReference: 'A-1', phone: '+234' })).toEqual([]);
	});

	test('a whole {{ }} expression is one leaf, wherever it sits', () => {
		expect(expressionLeaves('={{ $json.lat }}')).toEqual([{ path: [], code: ' $json.lat ' }]);
		expect(
			expressionLeaves({
				externalReference: '={{ $json.ref }}',
				note: 'fragile',
				stops: [{ address: '={{$json.a}}' }],
			}),
		).toEqual([
			{ path: ['externalReference'], code: ' $json.ref ' },
			{ path: ['stops', 0, 'address'], code: '$json.a' },
		]);
		expect(expressionLeaves({ __rl: true, mode: 'id', value: '={{ $json.hub }}' })).toEqual([
			{ path: ['value'], code: ' $json.hub ' },
		]);
	});

	test('templates and $parameter keep the whole parameter out of the batch', () => {
		expect(expressionLeaves('=ORD-{{ $json.id }}')).toBeUndefined();
		expect(expressionLeaves('={{ $json.id }} ')).toBeUndefined();
		expect(expressionLeaves('={{ $json.a }}-{{ $json.b }}')).toBeUndefined();
		expect(expressionLeaves('=plain text')).toBeUndefined();
		expect(expressionLeaves('={{ $parameter.pickupAddress }}')).toBeUndefined();
		expect(expressionLeaves({ a: '={{ $json.a }}', b: '=x{{ $json.b }}' })).toBeUndefined();
	});
});

test('batchExpression keeps each code on its own lines, in order', () => {
	const batch = batchExpression(['$json.a // note', '$json.b']);
	expect(batch.startsWith('{{ [')).toBe(true);
	expect(batch.endsWith('}}')).toBe(true);
	expect(batch).toContain('(\n$json.a // note\n),\n(\n$json.b\n)');
	// What n8n would evaluate, run here as plain JavaScript on a stand-in `$json`.
	const code = batch.slice(2, -2);
	const values = new Function('$json', `return ${code}`)({
		a: 1,
		b: { nested: true },
	}) as unknown[];
	expect(values).toEqual([1, { unbatchable: true }]);
	expect(values.map(isBatchable)).toEqual([true, false]);
});

test('withValues replaces each expression by its value and leaves the stored value alone', () => {
	const stored = { __rl: true, mode: 'id', value: '={{ $json.hub }}' };
	const leaves = expressionLeaves(stored)!;
	expect(withValues(stored, leaves, ['hub_lag_ikeja'])).toEqual({
		__rl: true,
		mode: 'id',
		value: 'hub_lag_ikeja',
	});
	expect(stored.value).toBe('={{ $json.hub }}');
	expect(withValues('={{ $json.a }}', expressionLeaves('={{ $json.a }}')!, [7])).toBe(7);
});
