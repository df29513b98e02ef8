import {
	apiIdentity,
	deriveIdempotencyKey,
	deriveReferentKey,
	type IdempotencyScope,
	type ReferentScope,
} from '../../nodes/PartnerLogistics/pipeline/idempotency/keyDerivation';
import {
	refusedForGood,
	RunKeys,
	type KeyMemory,
} from '../../nodes/PartnerLogistics/pipeline/idempotency/runKeys';
import {
	recordPlace,
	RefusalMemory,
	type Generations,
} from '../../nodes/PartnerLogistics/pipeline/idempotency/refusedKeys';

const scope: IdempotencyScope = {
	instanceId: 'instance-1',
	workflowId: 'wf-1',
	executionId: '101',
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
	const a = deriveIdempotencyKey({ ...scope, workflowId: 'ab', executionId: 'c' });
	const b = deriveIdempotencyKey({ ...scope, workflowId: 'a', executionId: 'bc' });
	expect(a).not.toBe(b);
});

test('says which action it belongs to and reveals nothing else', () => {
	const key = deriveIdempotencyKey(scope);
	expect(key).toMatch(/^n8n-booking\.create-[0-9a-f]{40}$/);
	expect(key).not.toContain('wf-1');
});

test('a generation gives a fresh key; generation 0 is the key without one', () => {
	expect(deriveIdempotencyKey({ ...scope, generation: 0 })).toBe(deriveIdempotencyKey(scope));
	const keys = [0, 1, 2].map((generation) => deriveIdempotencyKey({ ...scope, generation }));
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

describe('RunKeys: keys remembered in the node context for a retry', () => {
	const memory = (): KeyMemory => ({ seed: '101', sent: {}, refused: {} });
	const keysOf = (held: KeyMemory, runIndex = 0) =>
		new RunKeys(
			held,
			{ ...scope, runIndex, action: 'booking.create' },
			{ api: 'https://api.example/api/v1', refusals: new RefusalMemory([]) },
		);

	test('derives from the seed, not from the retry execution', () => {
		const held = memory();
		expect(keysOf(held).keyOf(3)).toBe(deriveIdempotencyKey({ ...scope, itemIndex: 3 }));
	});

	test('a refused item gets a new key; its neighbours and other runs keep theirs', () => {
		const held = memory();
		const before = [0, 1, 2].map((item) => keysOf(held).keyOf(item));
		keysOf(held).refused(1, before[1]);
		const after = [0, 1, 2].map((item) => keysOf(held).keyOf(item));
		expect(after[0]).toBe(before[0]);
		expect(after[2]).toBe(before[2]);
		expect(after[1]).not.toBe(before[1]);
		expect(keysOf(held, 1).keyOf(1)).toBe(keysOf(memory(), 1).keyOf(1));
		keysOf(held).refused(1, after[1]);
		expect(keysOf(held).keyOf(1)).not.toBe(after[1]);
		expect(keysOf(held).keyOf(1)).not.toBe(before[1]);
	});

	test('tells a key the execution it retries sent with another body from one sent with the same', () => {
		const held = memory();
		expect(keysOf(held).sending('k1', { a: 1 })).toBe(false);
		const retry = keysOf(held);
		expect(retry.sending('k1', { a: 1 })).toBe(false);
		expect(retry.sending('k1', { a: 2 })).toBe(true);
		// The API still holds the first body: sending it again is a plain replay.
		expect(retry.sending('k1', { a: 1 })).toBe(false);
		expect(retry.sending('k2', { a: 2 })).toBe(false);
	});

	test('a key this run recorded first is not one an earlier run holds', () => {
		const keys = keysOf(memory());
		expect(keys.sending('k1', { a: 1 })).toBe(false);
		expect(keys.sending('k1', { a: 2 })).toBe(false);
	});

	test('a refused key is forgotten with its body', () => {
		const held = memory();
		keysOf(held).sending('k1', { a: 1 });
		keysOf(held).refused(0, 'k1');
		expect(keysOf(held).sending('k1', { a: 2 })).toBe(false);
	});

	test('what it keeps is plain JSON, as n8n saves it with the execution', () => {
		const held = memory();
		const keys = keysOf(held);
		keys.sending(keys.keyOf(0), { a: 1 });
		keys.refused(1, keys.keyOf(1));
		const saved = JSON.parse(JSON.stringify(held)) as KeyMemory;
		expect(saved).toEqual(held);
		expect(keysOf(saved).keyOf(1)).toBe(keys.keyOf(1));
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
		const refusals = new RefusalMemory([]);
		const shared: Generations = {};
		const memoryOf = (generations: Generations) =>
			new RefusalMemory([recordPlace(10, () => generations)]);
		const runIn = (executionId: string, nodeId: string, held: Generations) =>
			new RunKeys(
				{ seed: executionId, sent: {}, refused: {} },
				{ ...scope, nodeId, action: 'booking.pay' },
				{ api: referent.api, refusals: memoryOf(held) },
			);
		const first = runIn('101', 'node-1', shared);
		const again = runIn('202', 'node-2', shared);
		expect(again.keyOf(0, ['bk_1'])).toBe(first.keyOf(5, ['bk_1']));
		expect(first.keyOf(0, ['bk_1'])).toBe(deriveReferentKey(referent));
		expect(first.keyOf(0, ['bk_2'])).not.toBe(first.keyOf(0, ['bk_1']));
		expect(refusals.generation('anything')).toBe(0);

		first.refused(0, first.keyOf(0, ['bk_1']));
		expect(again.keyOf(0, ['bk_1'])).toBe(deriveReferentKey(referent, 1));
		expect(again.keyOf(0, ['bk_2'])).toBe(first.keyOf(0, ['bk_2']));
		// The item's own generation is untouched: the referent's chain moved, not the item.
		expect(first.keyOf(0)).toBe(runIn('101', 'node-1', {}).keyOf(0));
	});

	test('a stale run cannot move a referent back, nor skip a generation', () => {
		const held: Generations = {};
		const keys = () =>
			new RunKeys(
				{ seed: '1', sent: {}, refused: {} },
				{ ...scope, action: 'booking.pay' },
				{
					api: referent.api,
					refusals: new RefusalMemory([recordPlace(10, () => held)]),
				},
			);
		const stale = keys();
		const staleKey = stale.keyOf(0, ['bk_1']);
		const current = keys();
		current.refused(0, current.keyOf(0, ['bk_1']));
		stale.refused(0, staleKey);
		expect(keys().keyOf(0, ['bk_1'])).toBe(deriveReferentKey(referent, 1));
	});
});

describe('RefusalMemory: several places read as one, each bounded', () => {
	const place = (held: Generations, bound = 3) => recordPlace(bound, () => held);

	test('reads the highest generation of any place, writes every place', () => {
		const a: Generations = { x: 2 };
		const b: Generations = {};
		const memory = new RefusalMemory([place(a), place(b)]);
		expect(memory.generation('x')).toBe(2);
		expect(memory.generation('y')).toBe(0);
		memory.refused('x', 2);
		expect([a.x, b.x]).toEqual([3, 3]);
	});

	test('a place not written yet is read as empty and created on the first refusal', () => {
		let created: Generations | undefined;
		const lazy = recordPlace(
			3,
			() => created,
			(next) => (created = next),
		);
		const memory = new RefusalMemory([lazy]);
		expect(memory.generation('x')).toBe(0);
		expect(created).toBeUndefined();
		memory.refused('x', 0);
		expect(created).toEqual({ x: 1 });
	});

	test('forgets the chain refused longest ago once over its bound', () => {
		const held: Generations = {};
		const memory = new RefusalMemory([place(held, 2)]);
		memory.refused('a:1', 0);
		memory.refused('b:1', 0);
		memory.refused('a:1', 1);
		memory.refused('c:1', 0);
		expect(held).toEqual({ 'a:1': 2, 'c:1': 1 });
	});
});
