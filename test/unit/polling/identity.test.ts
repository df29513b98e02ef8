import { identify } from '../../../nodes/PartnerLogistics/polling/observe';
import { listedIds } from '../../../nodes/PartnerLogistics/polling/settings';
import { valueAt } from '../../../nodes/PartnerLogistics/shared/valueAt';

describe('valueAt', () => {
	test('reads a field by name, then by a dotted path', () => {
		expect(valueAt({ caseId: 'case_1' }, 'caseId')).toBe('case_1');
		expect(valueAt({ truck: { assignmentId: 'asg_1' } }, 'truck.assignmentId')).toBe('asg_1');
		expect(valueAt({ 'truck.assignmentId': 'flat' }, 'truck.assignmentId')).toBe('flat');
		expect(valueAt({ truck: ['asg_1'] }, 'truck.0')).toBeUndefined();
		expect(valueAt({}, 'toString')).toBeUndefined();
	});
});

describe('identify', () => {
	test('gives each record its identity as text', () => {
		expect(identify([{ caseId: 'case_1' }, { caseId: 7 }], 'caseId')).toEqual({
			observed: [
				{ id: 'case_1', record: { caseId: 'case_1' } },
				{ id: '7', record: { caseId: 7 } },
			],
		});
	});

	test('keeps the first of records sharing an identity', () => {
		const result = identify(
			[
				{ id: 'a', n: 1 },
				{ id: 'a', n: 2 },
			],
			'id',
		);
		expect(result).toEqual({ observed: [{ id: 'a', record: { id: 'a', n: 1 } }] });
	});

	test.each([undefined, null, '', '  ', {}, true, Number.NaN])(
		'names the record whose identity is %p, with its field names',
		(value) => {
			const records = [{ caseId: 'case_1' }, { caseId: value, title: 'x' }];
			expect(identify(records, 'caseId')).toEqual({
				unidentified: { position: 2, fields: ['caseId', 'title'] },
			});
		},
	);
});

describe('listedIds', () => {
	test('splits text on commas, semicolons, spaces and new lines', () => {
		expect(listedIds('pay_1, pay_2;pay_3\npay_4  pay_5')).toEqual([
			'pay_1',
			'pay_2',
			'pay_3',
			'pay_4',
			'pay_5',
		]);
	});

	test('takes a list from an expression, leaving out empty values and repeats', () => {
		expect(listedIds(['pay_1', ' pay_2 ', '', 'pay_1', 42, null, ['pay_3']])).toEqual([
			'pay_1',
			'pay_2',
			'42',
			'pay_3',
		]);
	});

	test('is empty for nothing', () => {
		expect(listedIds('')).toEqual([]);
		expect(listedIds(undefined)).toEqual([]);
	});
});
