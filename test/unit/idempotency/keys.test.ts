import {
	apiIdentity,
	deriveIdempotencyKey,
	deriveReferentKey,
	type IdempotencyScope,
	type ReferentScope,
} from '../../../nodes/PartnerLogistics/pipeline/idempotency/keyDerivation';
import {
	refusedForGood,
	RunKeys,
	type KeyMemory,
} from '../../../nodes/PartnerLogistics/pipeline/idempotency/runKeys';
import {
	GenerationMemory,
	recordPlace,
	type Generations,
} from '../../../nodes/PartnerLogistics/pipeline/idempotency/generations';

const scope: IdempotencyScope = {
	instanceId: 'instance-1',
	workflowId: 'wf-1',
	run: 'run:abc:0',
	nodeId: 'node-1',
	runIndex: 0,
	itemIndex: 0,
	action: 'booking.create',
};

test('the same scope gives the same key (a retry of the same item)', () => {
	expect(deriveIdempotencyKey({ ...scope })).toBe(deriveIdempotencyKey(scope));
});

test.each(Object.keys(scope) as Array<keyof IdempotencyScope>)(
	'a different %s gives a different key',
	(field) => {
		const changed = {
			...scope,
			[field]: typeof scope[field] === 'number' ? 1 : `${scope[field]}-x`,
		};
		expect(deriveIdempotencyKey(changed)).not.toBe(deriveIdempotencyKey(scope));
	},
);

test('parts cannot run into each other', () => {
	const a = deriveIdempotencyKey({ ...scope, workflowId: 'ab', run: 'c' });
	const b = deriveIdempotencyKey({ ...scope, workflowId: 'a', run: 'bc' });
	expect(a).not.toBe(b);
});

test('says which action it belongs to and reveals nothing else', () => {
	const key = deriveIdempotencyKey(scope);
	expect(key).toMatch(/^n8n-booking\.create-[0-9a-f]{40}$/);
	expect(key).not.toContain('wf-1');
});

test('a generation gives a fresh key; generation 0 is the key without one', () => {
	expect(deriveIdempotencyKey(scope, 0)).toBe(deriveIdempotencyKey(scope));
	const keys = [0, 1, 2].map((generation) => deriveIdempotencyKey(scope, generation));
	expect(new Set(keys).size).toBe(3);
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
interface Held {
	memory: KeyMemory;
	runs: Generations;
	refusals: Generations;
}
const held = (): Held => ({ memory: { sent: {} }, runs: {}, refusals: {} });

/** A node run's keys over `places`, its input `items` as n8n hands them over. */
function keysOf(
	places: Held,
	items: unknown[] = [{ row: 1 }, { row: 2 }, { row: 3 }],
	runIndex = 0,
) {
	return new RunKeys(
		places.memory,
		{ ...scope, runIndex, action: 'supportCase.create' },
		{
			api: 'https://api.example/api/v1',
			refusals: new GenerationMemory([recordPlace(10, () => places.refusals)]),
			runs: new GenerationMemory([recordPlace(10, () => places.runs)]),
			input: () => JSON.stringify(items),
			keep: () => undefined,
		},
	);
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
	const referent: ReferentScope = {
		api: 'https://api.example/api/v1',
		action: 'booking.pay',
		referent: ['bk_1'],
	};

	test('depend on the API, the action and the referent only', () => {
		expect(deriveReferentKey({ ...referent })).toBe(deriveReferentKey(referent));
		expect(deriveReferentKey({ ...referent, referent: ['bk_2'] })).not.toBe(
			deriveReferentKey(referent),
		);
		expect(deriveReferentKey({ ...referent, action: 'booking.create' })).not.toBe(
			deriveReferentKey(referent),
		);
		expect(deriveReferentKey({ ...referent, api: 'https://other.example/api/v1' })).not.toBe(
			deriveReferentKey(referent),
		);
		expect(deriveReferentKey(referent)).toMatch(/^n8n-booking\.pay-[0-9a-f]{40}$/);
		expect(deriveReferentKey(referent)).not.toContain('bk_1');
	});

	test('parts cannot run into each other, and generations give fresh keys', () => {
		const split = (values: string[]) => deriveReferentKey({ ...referent, referent: values });
		expect(split(['ab', 'c'])).not.toBe(split(['a', 'bc']));
		expect(deriveReferentKey(referent, 0)).toBe(deriveReferentKey(referent));
		const keys = [0, 1, 2].map((generation) => deriveReferentKey(referent, generation));
		expect(new Set(keys).size).toBe(3);
	});

	test.each([
		['https://API.example/api/v1/', 'https://api.example/api/v1'],
		['https://api.example/api/v1//', 'https://api.example/api/v1'],
		[' https://api.example:443/api/v1 ', 'https://api.example/api/v1'],
	])('the API %j is the API %j', (written, api) => {
		expect(apiIdentity(written)).toBe(api);
		expect(deriveReferentKey({ ...referent, api: written })).toBe(
			deriveReferentKey({ ...referent, api }),
		);
	});

	test('are the same in every execution, node and workflow; a refusal moves the referent on', () => {
		const refusals = new GenerationMemory([]);
		const shared: Generations = {};
		const runIn = (input: string, nodeId: string, held: Generations) =>
			new RunKeys(
				{ sent: {} },
				{ ...scope, nodeId, action: 'booking.pay' },
				{
					api: referent.api,
					refusals: new GenerationMemory([recordPlace(10, () => held)]),
					runs: new GenerationMemory([]),
					input: () => input,
					keep: () => undefined,
				},
			);
		const first = runIn('[1]', 'node-1', shared);
		const again = runIn('[2]', 'node-2', shared);
		expect(again.keyOf(0, ['bk_1'])).toBe(first.keyOf(5, ['bk_1']));
		expect(first.keyOf(0, ['bk_1'])).toBe(deriveReferentKey(referent));
		expect(first.keyOf(0, ['bk_2'])).not.toBe(first.keyOf(0, ['bk_1']));
		expect(refusals.generation('anything')).toBe(0);

		first.refused(first.keyOf(0, ['bk_1']));
		expect(again.keyOf(0, ['bk_1'])).toBe(deriveReferentKey(referent, 1));
		expect(again.keyOf(0, ['bk_2'])).toBe(first.keyOf(0, ['bk_2']));
		// The item's own generation is untouched: the referent's chain moved, not the item.
		expect(first.keyOf(0)).toBe(runIn('[1]', 'node-1', {}).keyOf(0));
	});

	test('a stale run cannot move a referent back, nor skip a generation', () => {
		const held: Generations = {};
		const keys = () =>
			new RunKeys(
				{ sent: {} },
				{ ...scope, action: 'booking.pay' },
				{
					api: referent.api,
					refusals: new GenerationMemory([recordPlace(10, () => held)]),
					runs: new GenerationMemory([]),
					input: () => '[]',
					keep: () => undefined,
				},
			);
		const stale = keys();
		const staleKey = stale.keyOf(0, ['bk_1']);
		const current = keys();
		current.refused(current.keyOf(0, ['bk_1']));
		stale.refused(staleKey);
		expect(keys().keyOf(0, ['bk_1'])).toBe(deriveReferentKey(referent, 1));
	});
});

describe('GenerationMemory: several places read as one, each bounded', () => {
	const place = (held: Generations, bound = 3) => recordPlace(bound, () => held);

	test('reads the highest generation of any place, writes every place', () => {
		const a: Generations = { x: 2 };
		const b: Generations = {};
		const memory = new GenerationMemory([place(a), place(b)]);
		expect(memory.generation('x')).toBe(2);
		expect(memory.generation('y')).toBe(0);
		memory.raise('x', 2);
		expect([a.x, b.x]).toEqual([3, 3]);
	});

	test('a place not written yet is read as empty and created on the first refusal', () => {
		let created: Generations | undefined;
		const lazy = recordPlace(
			3,
			() => created,
			(next) => (created = next),
		);
		const memory = new GenerationMemory([lazy]);
		expect(memory.generation('x')).toBe(0);
		expect(created).toBeUndefined();
		memory.raise('x', 0);
		expect(created).toEqual({ x: 1 });
	});

	test('forgets the chain refused longest ago once over its bound', () => {
		const held: Generations = {};
		const memory = new GenerationMemory([place(held, 2)]);
		memory.raise('a:1', 0);
		memory.raise('b:1', 0);
		memory.raise('a:1', 1);
		memory.raise('c:1', 0);
		expect(held).toEqual({ 'a:1': 2, 'c:1': 1 });
	});
});
