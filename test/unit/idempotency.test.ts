import {
	deriveIdempotencyKey,
	type IdempotencyScope,
} from '../../nodes/PartnerLogistics/shared/idempotency';

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
