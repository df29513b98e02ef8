import {
	apiIdentity,
	refusedForGood,
	RunKeys,
	type KeyMemory,
	type RunScope,
} from '../../../../nodes/PartnerLogistics/pipeline/idempotency/runKeys';
import {
	GenerationMemory,
	recordPlace,
	type Generations,
} from '../../../../nodes/PartnerLogistics/pipeline/idempotency/generations';

/** What a node run's keys are made of, besides its input and places. */
const scope = {
	instanceId: 'instance-1',
	workflowId: 'wf-1',
	nodeId: 'node-1',
	runIndex: 0,
	action: 'booking.create',
	api: 'https://api.example/api/v1',
};

/** Where a place keeps its record, as a node context or static data does. */
type Holder = Record<string, unknown>;

/** A node run's keys, its refusals in `refusals`, its input `input`, nothing else remembered. */
const runOf = (changed: Partial<RunScope> = {}, refusals: Holder = {}, input = '[1]') =>
	new RunKeys(
		{ sent: {} },
		{
			...scope,
			refusals: new GenerationMemory([recordPlace(refusals, 'refusals', 10)]),
			runs: new GenerationMemory([]),
			input: () => input,
			keep: () => undefined,
			...changed,
		},
	);

describe('a creation key: the same for every try of one item in one node run, else different', () => {
	test('the same run and item give the same key (a retry of the same item)', () => {
		expect(runOf().keyOf(0)).toBe(runOf().keyOf(0));
	});

	test.each([
		['instanceId', { instanceId: 'instance-2' }, 0],
		['workflowId', { workflowId: 'wf-2' }, 0],
		['run (its input)', { input: () => '[2]' }, 0],
		['nodeId', { nodeId: 'node-2' }, 0],
		['runIndex', { runIndex: 1 }, 0],
		['itemIndex', {}, 1],
		['action', { action: 'quote.create' }, 0],
	] as Array<[string, Partial<RunScope>, number]>)(
		'a different %s gives a different key',
		(_, changed, itemIndex) => {
			expect(runOf(changed).keyOf(itemIndex)).not.toBe(runOf().keyOf(0));
		},
	);

	test('parts cannot run into each other', () => {
		const a = runOf({ instanceId: 'ab', workflowId: 'c' }).keyOf(0);
		expect(runOf({ instanceId: 'a', workflowId: 'bc' }).keyOf(0)).not.toBe(a);
	});

	test('says which action it belongs to and reveals nothing else', () => {
		const key = runOf().keyOf(0);
		expect(key).toMatch(/^n8n-booking\.create-[0-9a-f]{40}$/);
		expect(key).not.toContain('wf-1');
	});

	test('are the keys earlier versions sent, so a Retry of their executions sends the same', () => {
		const refusals: Holder = {};
		const run = runOf({ action: 'booking.pay' }, refusals, '[{"row":1}]');
		const keys = [run.keyOf(0), run.keyOf(2), run.keyOf(0, ['bk_1'])];
		run.refused(keys[0]);
		run.refused(keys[2]);
		const after = runOf({ action: 'booking.pay' }, refusals, '[{"row":1}]');
		expect([...keys, after.keyOf(0), after.keyOf(0, ['bk_1'])]).toEqual([
			'n8n-booking.pay-06f6c8a60f62342fd8fa8035a76699b6863f5119',
			'n8n-booking.pay-7d6b9ea2002059e6b30e2139f154bee044a1b13d',
			'n8n-booking.pay-b693eac26d5bd410bd81d7de13dde15ef89f1278',
			'n8n-booking.pay-d84c67d82e7db0d3befb884a590154cc4586e481',
			'n8n-booking.pay-031f3cf457ec86b06e9812f753eb6081efe78c2c',
		]);
	});
});

describe('refusedForGood: which answers spend a key', () => {
	test.each([400, 401, 403, 404, 405, 413, 422])('%i: refused, nothing done', (status) => {
		expect(refusedForGood({ httpCode: String(status) })).toBe(true);
	});
	test.each([200, 201, 302, 408, 409, 429, 500, 502, 503, 504])('%i: keeps its key', (status) => {
		expect(refusedForGood({ httpCode: String(status) })).toBe(false);
	});
});

/** The places a run reads and raises: plain records, as static data and node context hold them. */
type Held = { memory: KeyMemory; runs?: Generations; refusals?: Generations };
const held = (): Held => ({ memory: { sent: {} }, runs: {}, refusals: {} });

/** A node run's keys over `places`, its input `items` as n8n hands them over. */
function keysOf(
	places: Held,
	items: unknown[] = [{ row: 1 }, { row: 2 }, { row: 3 }],
	runIndex = 0,
) {
	return new RunKeys(places.memory, {
		...scope,
		runIndex,
		action: 'supportCase.create',
		refusals: new GenerationMemory([recordPlace(places, 'refusals', 10)]),
		runs: new GenerationMemory([recordPlace(places, 'runs', 10)]),
		input: () => JSON.stringify(items),
		keep: () => undefined,
	});
}

describe('RunKeys: a creation is keyed by the input of its run, which a Retry is handed again', () => {
	test('a Retry with nothing remembered (n8n died) derives the same keys from the same input', () => {
		const first = keysOf(held());
		const retry = keysOf(held());
		expect([0, 1, 2].map((item) => retry.keyOf(item))).toEqual(
			[0, 1, 2].map((item) => first.keyOf(item)),
		);
		expect(new Set([0, 1, 2].map((item) => first.keyOf(item))).size).toBe(3);
		expect(first.keyOf(0)).toMatch(/^n8n-supportCase\.create-[0-9a-f]{40}$/);
	});

	test('other input, or another run of the node in the execution, gets other keys', () => {
		const first = keysOf(held()).keyOf(0);
		expect(keysOf(held(), [{ row: 1 }, { row: 2 }, { row: 4 }]).keyOf(0)).not.toBe(first);
		expect(keysOf(held(), undefined, 1).keyOf(0)).not.toBe(first);
	});

	test('a run that finished moves its input on: the next run of the same rows creates anew', () => {
		const places = held();
		const first = keysOf(places);
		const key = first.keyOf(0);
		first.sending(key, { a: 1 });
		const retry = keysOf(places);
		expect(retry.keyOf(0)).toBe(key);
		first.finished();
		const next = keysOf(places);
		expect(next.keyOf(0)).not.toBe(key);
		next.sending(next.keyOf(0), { a: 1 });
		next.finished();
		expect(keysOf(places).keyOf(0)).not.toBe(next.keyOf(0));
	});

	test('a run that sent nothing (a dry run) finishes nothing: the real run sends its keys', () => {
		const places = held();
		const dry = keysOf(places);
		const previewed = dry.keyOf(1);
		dry.finished();
		expect(places.runs).toEqual({});
		expect(keysOf(places).keyOf(1)).toBe(previewed);
	});

	test('a refused item gets a new key; its neighbours keep theirs', () => {
		const places = held();
		const before = [0, 1, 2].map((item) => keysOf(places).keyOf(item));
		const run = keysOf(places);
		run.refused(run.keyOf(1));
		const after = [0, 1, 2].map((item) => keysOf(places).keyOf(item));
		expect(after[0]).toBe(before[0]);
		expect(after[2]).toBe(before[2]);
		expect(after[1]).not.toBe(before[1]);
		const again = keysOf(places);
		again.refused(again.keyOf(1));
		expect(keysOf(places).keyOf(1)).not.toBe(after[1]);
		expect(keysOf(places).keyOf(1)).not.toBe(before[1]);
	});

	test('tells a key the execution it retries sent with another body from one sent with the same', () => {
		const places = held();
		expect(keysOf(places).sending('k1', { a: 1 })).toBe(false);
		const retry = keysOf(places);
		expect(retry.sending('k1', { a: 1 })).toBe(false);
		expect(retry.sending('k1', { a: 2 })).toBe(true);
		// The API still holds the first body: sending it again is a plain replay.
		expect(retry.sending('k1', { a: 1 })).toBe(false);
		expect(retry.sending('k2', { a: 2 })).toBe(false);
	});

	test('a key this run recorded first is not one an earlier run holds', () => {
		const keys = keysOf(held());
		expect(keys.sending('k1', { a: 1 })).toBe(false);
		expect(keys.sending('k1', { a: 2 })).toBe(false);
	});

	test('a refused key is forgotten with its body', () => {
		const places = held();
		const run = keysOf(places);
		const key = run.keyOf(0);
		run.sending(key, { a: 1 });
		run.refused(key);
		expect(keysOf(places).sending(key, { a: 2 })).toBe(false);
	});

	test('what it keeps is plain JSON, as n8n saves it with the execution', () => {
		const places = held();
		const keys = keysOf(places);
		keys.sending(keys.keyOf(0), { a: 1 });
		keys.refused(keys.keyOf(1));
		const saved = JSON.parse(JSON.stringify(places)) as Held;
		expect(saved).toEqual(places);
		expect(keysOf(saved).keyOf(1)).toBe(keysOf(places).keyOf(1));
		expect(keysOf(saved).sending(keys.keyOf(0), { a: 2 })).toBe(true);
	});
});

describe('referent keys: an action on something that exists, keyed by it', () => {
	const pay = { action: 'booking.pay' };
	const keyOf = (changed: Partial<RunScope> = {}, referent = ['bk_1'], refusals = {}) =>
		runOf({ ...pay, ...changed }, refusals).keyOf(0, referent);

	test('depend on the API, the action and the referent only', () => {
		expect(keyOf({ instanceId: 'other', workflowId: 'other', runIndex: 3 })).toBe(keyOf());
		expect(keyOf({}, ['bk_2'])).not.toBe(keyOf());
		expect(keyOf({ action: 'booking.create' })).not.toBe(keyOf());
		expect(keyOf({ api: 'https://other.example/api/v1' })).not.toBe(keyOf());
		expect(keyOf()).toMatch(/^n8n-booking\.pay-[0-9a-f]{40}$/);
		expect(keyOf()).not.toContain('bk_1');
	});

	test('parts cannot run into each other, and refusals give fresh keys', () => {
		expect(keyOf({}, ['ab', 'c'])).not.toBe(keyOf({}, ['a', 'bc']));
		const refusals: Holder = {};
		const keys = [0, 1, 2].map(() => {
			const run = runOf(pay, refusals);
			const key = run.keyOf(0, ['bk_1']);
			run.refused(key);
			return key;
		});
		expect(new Set(keys).size).toBe(3);
	});

	test.each([
		['https://API.example/api/v1/', 'https://api.example/api/v1'],
		['https://api.example/api/v1//', 'https://api.example/api/v1'],
		[' https://api.example:443/api/v1 ', 'https://api.example/api/v1'],
	])('the API %j is the API %j', (written, api) => {
		expect(apiIdentity(written)).toBe(api);
		expect(keyOf({ api: written })).toBe(keyOf({ api }));
	});

	test('are the same in every execution, node and workflow; a refusal moves the referent on', () => {
		const refusals = new GenerationMemory([]);
		const shared: Holder = {};
		const runIn = (input: string, nodeId: string, held: Holder) =>
			runOf({ ...pay, nodeId }, held, input);
		const first = runIn('[1]', 'node-1', shared);
		const again = runIn('[2]', 'node-2', shared);
		expect(again.keyOf(0, ['bk_1'])).toBe(first.keyOf(5, ['bk_1']));
		expect(first.keyOf(0, ['bk_1'])).toBe(keyOf());
		expect(first.keyOf(0, ['bk_2'])).not.toBe(first.keyOf(0, ['bk_1']));
		expect(refusals.generation('anything')).toBe(0);

		const refused = first.keyOf(0, ['bk_1']);
		first.refused(refused);
		expect(again.keyOf(0, ['bk_1'])).not.toBe(refused);
		expect(again.keyOf(0, ['bk_1'])).toBe(keyOf({}, ['bk_1'], shared));
		expect(again.keyOf(0, ['bk_2'])).toBe(first.keyOf(0, ['bk_2']));
		// The item's own generation is untouched: the referent's chain moved, not the item.
		expect(first.keyOf(0)).toBe(runIn('[1]', 'node-1', {}).keyOf(0));
	});

	test('a stale run cannot move a referent back, nor skip a generation', () => {
		const held: Holder = {};
		const once: Holder = {};
		const refusedOnce = runOf(pay, once);
		refusedOnce.refused(refusedOnce.keyOf(0, ['bk_1']));
		const stale = runOf(pay, held);
		const staleKey = stale.keyOf(0, ['bk_1']);
		const current = runOf(pay, held);
		current.refused(current.keyOf(0, ['bk_1']));
		stale.refused(staleKey);
		expect(keyOf({}, ['bk_1'], held)).toBe(keyOf({}, ['bk_1'], once));
	});
});

describe('GenerationMemory: several places read as one, each bounded', () => {
	const place = (holder: Holder, bound = 3) => recordPlace(holder, 'g', bound);

	test('reads the highest generation of any place, writes every place', () => {
		const a = { g: { x: 2 } };
		const b: Holder = {};
		const memory = new GenerationMemory([place(a), place(b)]);
		expect(memory.generation('x')).toBe(2);
		expect(memory.generation('y')).toBe(0);
		memory.raise('x', 2);
		expect([a.g, b.g]).toEqual([{ x: 3 }, { x: 3 }]);
	});

	test('a place not written yet is read as empty, created on the first refusal, replaced whole', () => {
		const holder: Holder = {};
		let kept = 0;
		const memory = new GenerationMemory([recordPlace(holder, 'g', 3, () => kept++)]);
		expect(memory.generation('x')).toBe(0);
		expect(holder).toEqual({});
		memory.raise('x', 0);
		const first = holder.g;
		expect(first).toEqual({ x: 1 });
		memory.raise('y', 0);
		// A new object, as n8n notices changes in static data only by the objects it held at the start.
		expect(holder.g).not.toBe(first);
		expect(holder.g).toEqual({ x: 1, y: 1 });
		expect(kept).toBe(2);
	});

	test('forgets the chain refused longest ago once over its bound', () => {
		const holder: Holder = {};
		const memory = new GenerationMemory([place(holder, 2)]);
		memory.raise('a:1', 0);
		memory.raise('b:1', 0);
		memory.raise('a:1', 1);
		memory.raise('c:1', 0);
		expect(holder.g).toEqual({ 'a:1': 2, 'c:1': 1 });
	});
});
