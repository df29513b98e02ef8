import { bounded, recall, type Remembered } from '../../../nodes/PartnerLogistics/polling/changes';

const entry = (id: string): Remembered => ({ id, digest: `d-${id}`, fields: { id: 'x' } });
const watching = 'truck id=assignmentId';

describe('recall', () => {
	test('is none before the first poll', () => {
		expect(recall(undefined, watching)).toBeUndefined();
		expect(recall({}, watching)).toBeUndefined();
	});

	test('is none for memory kept while something else was watched', () => {
		const stored = { version: 1, watching: 'supportCase status=OPEN id=caseId', records: [] };
		expect(recall(stored, watching)).toBeUndefined();
	});

	test('is none for memory of another shape, rather than every record looking changed', () => {
		expect(recall({ version: 2, watching, records: [] }, watching)).toBeUndefined();
		expect(recall({ version: 1, watching, records: [{ id: 1 }] }, watching)).toBeUndefined();
		expect(
			recall(
				{ version: 1, watching, records: [{ id: 'a', digest: 'd', fields: { x: 1 } }] },
				watching,
			),
		).toBeUndefined();
	});

	test('gives copies: changing them leaves the stored memory as it was', () => {
		const stored = {
			version: 1,
			watching,
			records: [{ ...entry('asg_1'), record: { assignmentId: 'asg_1', eta: 'x' } }],
		};
		const before = JSON.stringify(stored);
		const memory = recall(stored, watching)!;
		memory.records[0].fields.id = 'changed';
		memory.records[0].record!.eta = 'changed';
		memory.records.push(entry('asg_2'));
		expect(JSON.stringify(stored)).toBe(before);
	});
});

describe('bounded', () => {
	const ids = (records: Remembered[]) => records.map((record) => record.id);
	const records = ['a', 'b', 'c', 'd'].map(entry);

	test('keeps everything within the bound', () => {
		expect(bounded(records, new Set(), 4)).toBe(records);
	});

	test('drops the oldest records this poll did not see first', () => {
		expect(ids(bounded(records, new Set(['a', 'c']), 2))).toEqual(['a', 'c']);
		expect(ids(bounded(records, new Set(['a']), 3))).toEqual(['a', 'c', 'd']);
	});

	test('drops the oldest seen ones only when the poll alone saw more than the bound', () => {
		expect(ids(bounded(records, new Set(['a', 'b', 'c', 'd']), 2))).toEqual(['c', 'd']);
	});
});
