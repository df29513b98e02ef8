import type { IDataObject } from 'n8n-workflow';

import {
	type CompareOptions,
	compare,
	counted,
	type Memory,
	type Observed,
} from '../../../nodes/PartnerLogistics/polling/changes';

// The pure rule of the polling trigger: what one poll emits and remembers, given what it saw.

const options: CompareOptions = {
	watching: 'supportCase status=OPEN id=caseId',
	maxRecords: 100,
	emitCurrentState: false,
	includePrevious: false,
};

const seen = (...records: IDataObject[]): Observed[] =>
	records.map((record) => ({ id: String(record.caseId), record }));

const open1 = { caseId: 'case_1', status: 'OPEN', title: 'Parcel late', meta: { a: 1, b: 2 } };
const open2 = { caseId: 'case_2', status: 'OPEN', title: 'Damaged box' };

/** Polls one after the other, each with the memory the previous one left. */
function polls(options_: CompareOptions, ...answers: Observed[][]) {
	let memory: Memory | undefined;
	return answers.map((observed) => {
		const result = compare(memory, observed, options_);
		memory = result.memory;
		return result;
	});
}

describe('the first poll', () => {
	test('emits nothing and learns every record', () => {
		const [first] = polls(options, seen(open1, open2));
		expect(first.changes).toEqual([]);
		expect(first.memory.watching).toBe(options.watching);
		expect(first.memory.records.map((entry) => entry.id)).toEqual(['case_1', 'case_2']);
	});

	test('emits every record as current when asked to', () => {
		const [first, second] = polls(
			{ ...options, emitCurrentState: true },
			seen(open1, open2),
			seen(open1, open2),
		);
		expect(first.changes).toEqual([
			{ change: 'current', recordId: 'case_1', changedFields: [], record: open1 },
			{ change: 'current', recordId: 'case_2', changedFields: [], record: open2 },
		]);
		expect(second.changes).toEqual([]);
	});

	test('of an empty list still leaves a memory, so the next record is new', () => {
		const [first, second] = polls(options, [], seen(open1));
		expect(first.memory.records).toEqual([]);
		expect(second.changes).toEqual([
			{ change: 'new', recordId: 'case_1', changedFields: [], record: open1 },
		]);
	});
});

describe('later polls', () => {
	test('emit a new record once', () => {
		const [, second, third] = polls(options, seen(open1), seen(open1, open2), seen(open1, open2));
		expect(second.changes).toEqual([
			{ change: 'new', recordId: 'case_2', changedFields: [], record: open2 },
		]);
		expect(third.changes).toEqual([]);
	});

	test('emit a changed record once, naming the fields that changed', () => {
		const closed = { ...open1, status: 'CLOSED', meta: { a: 1, b: 3 } };
		const [, second, third] = polls(
			options,
			seen(open1, open2),
			seen(closed, open2),
			seen(closed, open2),
		);
		expect(second.changes).toEqual([
			{ change: 'changed', recordId: 'case_1', changedFields: ['status', 'meta'], record: closed },
		]);
		expect(third.changes).toEqual([]);
	});

	test('judge the whole record: a change deep inside a field counts', () => {
		const timeline = { ...open1, timeline: [{ type: 'CREATED' }] };
		const commented = { ...open1, timeline: [{ type: 'CREATED' }, { type: 'COMMENT' }] };
		const [, second] = polls(options, seen(timeline), seen(commented));
		expect(second.changes).toMatchObject([{ change: 'changed', changedFields: ['timeline'] }]);
	});

	test('do not count the order of fields as a change', () => {
		const reordered = {
			meta: { b: 2, a: 1 },
			title: 'Parcel late',
			status: 'OPEN',
			caseId: 'case_1',
		};
		const [, second] = polls(options, seen(open1), seen(reordered));
		expect(second.changes).toEqual([]);
	});

	test('name added and removed fields', () => {
		const withNote = {
			caseId: 'case_1',
			status: 'OPEN',
			meta: open1.meta,
			note: 'called the recipient',
		};
		const [, second] = polls(options, seen(open1), seen(withNote));
		expect(second.changes[0].changedFields).toEqual(['note', 'title']);
	});

	test('emit nothing for an unchanged record, however often it is polled', () => {
		const results = polls(options, seen(open1, open2), seen(open1, open2), seen(open2, open1));
		expect(results.map((result) => result.changes)).toEqual([[], [], []]);
	});

	test('tell records apart by their identity, not by their content', () => {
		const twin = { ...open1, caseId: 'case_9' };
		const [, second] = polls(options, seen(open1), seen(open1, twin));
		expect(second.changes).toMatchObject([{ change: 'new', recordId: 'case_9' }]);
	});

	test('remember a record that was not listed, and emit it as changed when it comes back changed', () => {
		const closed = { ...open1, status: 'CLOSED' };
		const [, second, third] = polls(options, seen(open1, open2), seen(open2), seen(closed, open2));
		expect(second.changes).toEqual([]);
		expect(third.changes).toMatchObject([
			{ change: 'changed', recordId: 'case_1', changedFields: ['status'] },
		]);
	});

	test('count the first of records sharing an identity', () => {
		const [, second] = polls(options, seen(open1), [
			{ id: 'case_1', record: open1 },
			{ id: 'case_1', record: { ...open1, status: 'CLOSED' } },
		]);
		expect(second.changes).toEqual([]);
	});
});

describe('the previous record', () => {
	test('comes with a change when Include Previous Record is on', () => {
		const on = { ...options, includePrevious: true };
		const closed = { ...open1, status: 'CLOSED' };
		const [, second] = polls(on, seen(open1), seen(closed));
		expect(second.changes).toEqual([
			{
				change: 'changed',
				recordId: 'case_1',
				changedFields: ['status'],
				record: closed,
				previous: open1,
			},
		]);
	});

	test('is not remembered while the option is off', () => {
		const [first] = polls(options, seen(open1));
		expect(first.memory.records[0]).not.toHaveProperty('record');
		expect(Object.keys(first.memory.records[0])).toEqual(['id', 'digest', 'fields']);
	});

	test('is remembered from the next poll on once the option is turned on', () => {
		const closed = { ...open1, status: 'CLOSED' };
		const off = compare(undefined, seen(open1), options);
		const on = { ...options, includePrevious: true };
		const unchanged = compare(off.memory, seen(open1), on);
		expect(unchanged.changes).toEqual([]);
		expect(unchanged.memory.records[0].record).toEqual(open1);
		const changed = compare(unchanged.memory, seen(closed), on);
		expect(changed.changes[0].previous).toEqual(open1);
	});
});

describe('bounded memory', () => {
	const bounded = { ...options, maxRecords: 3 };
	const cases = (...ids: number[]) =>
		seen(...ids.map((n) => ({ caseId: `case_${n}`, status: 'OPEN' })));
	const ids = (memory: Memory) => memory.records.map((entry) => entry.id);

	test('keeps at most N records, dropping the oldest not listed first', () => {
		const [, , third] = polls(bounded, cases(1, 2, 3), cases(2, 3), cases(2, 3, 4));
		expect(ids(third.memory)).toEqual(['case_2', 'case_3', 'case_4']);
	});

	test('never drops a listed record while an unlisted one can go', () => {
		// case_1 is the oldest but still listed; case_2 is not listed any more.
		const [, , third] = polls(bounded, cases(1, 2, 3), cases(1, 3), cases(1, 3, 4));
		expect(ids(third.memory)).toEqual(['case_1', 'case_3', 'case_4']);
		expect(third.changes.map((change) => change.recordId)).toEqual(['case_4']);
	});

	test('a forgotten record is new when it comes back', () => {
		const [, , third] = polls(bounded, cases(1, 2, 3), cases(4), cases(1, 4));
		expect(third.changes).toMatchObject([{ change: 'new', recordId: 'case_1' }]);
	});

	test('a changed record counts as the newest', () => {
		const [, second] = polls(bounded, cases(1, 2, 3), [
			{ id: 'case_1', record: { caseId: 'case_1', status: 'CLOSED' } },
			...cases(2, 3),
		]);
		expect(ids(second.memory)).toEqual(['case_2', 'case_3', 'case_1']);
	});
});

test('compare changes neither the memory nor the records it is given', () => {
	const first = compare(undefined, seen(open1, open2), { ...options, includePrevious: true });
	const memory = JSON.parse(JSON.stringify(first.memory)) as Memory;
	const observed = seen({ ...open1, status: 'CLOSED' }, open2);
	const observedCopy = JSON.parse(JSON.stringify(observed));
	deepFreeze(memory);
	deepFreeze(observed);
	compare(memory, observed, { ...options, includePrevious: true, maxRecords: 1 });
	expect(observed).toEqual(observedCopy);
});

function deepFreeze(value: unknown) {
	if (value && typeof value === 'object') {
		Object.values(value).forEach(deepFreeze);
		Object.freeze(value);
	}
}

describe('listed IDs not found, and IDs not read', () => {
	const gone: Observed = { id: 'case_9', notFound: 'Not found (404)' };

	test('a 404 is reported once, on the first poll too; the ID is new once it appears', () => {
		const [first, second, third] = polls(
			options,
			[...seen(open1), gone],
			[gone],
			[...seen(open1), { id: 'case_9', record: { caseId: 'case_9' } }],
		);
		expect(first.changes).toEqual([
			{
				change: 'notFound',
				recordId: 'case_9',
				changedFields: [],
				record: {},
				message: 'Not found (404)',
			},
		]);
		expect(second.changes).toEqual([]);
		expect(third.changes).toEqual([
			{ change: 'new', recordId: 'case_9', changedFields: [], record: { caseId: 'case_9' } },
		]);
	});

	test('a known record that turns 404 is reported once', () => {
		const [, second, third] = polls(
			options,
			seen(open1),
			[{ ...gone, id: 'case_1' }],
			[{ ...gone, id: 'case_1' }],
		);
		expect(second.changes).toEqual([
			expect.objectContaining({ change: 'notFound', recordId: 'case_1' }),
		]);
		expect(third.changes).toEqual([]);
	});

	test('an ID not read keeps its memory, and is not forgotten for being unseen', () => {
		const first = compare(undefined, seen(open1, open2), options);
		const changed = { ...open1, title: 'Parcel found' };
		const unread = compare(first.memory, seen(open2), { ...options, maxRecords: 2 }, ['case_1']);
		expect(unread.changes).toEqual([]);
		expect(unread.memory.records).toEqual(first.memory.records);
		const next = compare(unread.memory, seen(changed, open2), options);
		expect(next.changes).toEqual([
			expect.objectContaining({ change: 'changed', recordId: 'case_1' }),
		]);
	});
});

describe('the fields that count', () => {
	const truck = (status: string, latitude: number) => ({
		assignmentId: 'asg_1',
		status,
		lastPosition: { latitude, longitude: 3.3 },
	});
	const observedTruck = (status: string, latitude: number): Observed[] => [
		{ id: 'asg_1', record: truck(status, latitude) },
	];

	test('only the fields named count, and only they are named as changed', () => {
		const named = { ...options, fields: ['status'] };
		const [, moved, departed] = polls(
			named,
			observedTruck('ASSIGNED', 6.5),
			observedTruck('ASSIGNED', 6.6),
			observedTruck('IN_TRANSIT', 6.7),
		);
		expect(moved.changes).toEqual([]);
		expect(departed.changes).toEqual([
			{
				change: 'changed',
				recordId: 'asg_1',
				changedFields: ['status'],
				record: truck('IN_TRANSIT', 6.7),
			},
		]);
	});

	test('counted() reads dotted names and leaves out what a record lacks', () => {
		expect(counted(truck('ASSIGNED', 6.5), ['lastPosition.latitude', 'status', 'eta'])).toEqual({
			'lastPosition.latitude': 6.5,
			status: 'ASSIGNED',
		});
		expect(counted(truck('ASSIGNED', 6.5), undefined)).toEqual(truck('ASSIGNED', 6.5));
	});
});
