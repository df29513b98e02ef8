import {
	batchExpression,
	expressionLeaves,
	isBatchable,
	itemField,
	readItemField,
	withValues,
} from '../../../nodes/PartnerLogistics/pipeline/parameters';

describe('expressionLeaves: which stored values can join a batch', () => {
	test('a value without an expression has none', () => {
		expect(expressionLeaves('Lekki')).toEqual([]);
		expect(expressionLeaves(6.45)).toEqual([]);
		expect(expressionLeaves(undefined)).toEqual([]);
		expect(expressionLeaves({ externalReference: 'A-1', phone: '+234' })).toEqual([]);
	});

	test('a whole {{ }} expression is one leaf, wherever it sits', () => {
		expect(expressionLeaves('={{ $json.lat }}')).toEqual([
			{ path: [], code: ' $json.lat ', field: ['lat'] },
		]);
		expect(
			expressionLeaves({
				externalReference: '={{ $json.ref }}',
				note: 'fragile',
				stops: [{ address: '={{$json.a + 1}}' }],
			}),
		).toEqual([
			{ path: ['externalReference'], code: ' $json.ref ', field: ['ref'] },
			{ path: ['stops', 0, 'address'], code: '$json.a + 1', field: undefined },
		]);
		expect(expressionLeaves({ __rl: true, mode: 'id', value: '={{ $json.hub }}' })).toEqual([
			{ path: ['value'], code: ' $json.hub ', field: ['hub'] },
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

describe('itemField: an expression that only reads a field of the item', () => {
	test.each([
		[' $json.pickupAddress ', ['pickupAddress']],
		['$json.to.street', ['to', 'street']],
		[" $json['pickup address'] ", ['pickup address']],
		['$json["to"].lat', ['to', 'lat']],
		['$json . a', ['a']],
	])('%p reads %p', (code, field) => expect(itemField(code)).toEqual(field));

	test.each([
		'$json',
		'$json.a + 1',
		'$json.a.toUpperCase()',
		'$json[0]',
		'$json[key]',
		"$('Node').item.json.a",
		'$json.a // note',
		'$json.__proto__',
		'$json.a.constructor',
		"$json['prototype']",
		'$input.item.json.a',
	])('%p is left to n8n', (code) => expect(itemField(code)).toBeUndefined());
});

test('readItemField: text, numbers, booleans and null as they are; anything else is left to n8n', () => {
	const item = { a: 'x', n: 0, b: false, z: null, o: { s: 'y' }, d: new Date(0), l: [1] };
	expect(['a', 'n', 'b', 'z'].map((name) => readItemField(item, [name]))).toEqual([
		'x',
		0,
		false,
		null,
	]);
	expect(readItemField(item, ['o', 's'])).toBe('y');
	for (const field of [['o'], ['d'], ['l'], ['missing'], ['a', 'length'], ['toString']]) {
		expect(readItemField(item, field)).toBeUndefined();
	}
});
