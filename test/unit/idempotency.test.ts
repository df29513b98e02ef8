import {
	deriveIdempotencyKey,
	refusesForGood,
	RunKeys,
	type IdempotencyScope,
	type KeyMemory,
} from '../../nodes/PartnerLogistics/pipeline/keys';

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

describe('refusesForGood: which answers spend a key', () => {
	test.each([400, 401, 403, 404, 405, 413, 422])('%i: refused, nothing done', (status) => {
		expect(refusesForGood(status)).toBe(true);
	});
	test.each([200, 201, 302, 408, 409, 429, 500, 502, 503, 504])('%i: keeps its key', (status) => {
		expect(refusesForGood(status)).toBe(false);
	});
});

describe('RunKeys: keys remembered in the node context for a retry', () => {
	const memory = (): KeyMemory => ({ seed: '101', sent: {}, refused: {} });
	const keysOf = (held: KeyMemory, runIndex = 0) =>
		new RunKeys(held, { ...scope, runIndex, action: 'booking.create' });

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

	test('tells a key sent again with another body from one sent again with the same', () => {
		const held = memory();
		const keys = keysOf(held);
		expect(keys.sending('k1', { a: 1 })).toBe(false);
		expect(keys.sending('k1', { a: 1 })).toBe(false);
		expect(keys.sending('k1', { a: 2 })).toBe(true);
		// The API still holds the first body: sending it again is a plain replay.
		expect(keys.sending('k1', { a: 1 })).toBe(false);
		expect(keys.sending('k2', { a: 2 })).toBe(false);
	});

	test('a refused key is forgotten with its body', () => {
		const held = memory();
		const keys = keysOf(held);
		keys.sending('k1', { a: 1 });
		keys.refused(0, 'k1');
		expect(keys.sending('k1', { a: 2 })).toBe(false);
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
