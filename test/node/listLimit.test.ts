import { startSandbox, type Sandbox } from '../sandbox';
import { startPollHarness } from '../harness/poll';
import { toolOf } from '../harness';
import { credentialsFor, runAgainst } from './helpers';

// A list's Limit is a whole number of at least 1 (the spec: "limit (integer)"; its maximum is not
// shown). A value from an expression is checked like any other field before anything is sent: in
// the node, as an AI tool and in the polling trigger.

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

const BAD = [-1, 0, 1.5, '-1', '0', 'abc', '10&x=1', '1e400', Number.MAX_SAFE_INTEGER + 2];
const getMany = (limit: unknown) => ({
	resource: 'supportCase',
	operation: 'getAll',
	returnAll: false,
	limit: `={{ ${JSON.stringify(limit)} }}`,
});

describe('Support Case › Get Many: Limit', () => {
	test.each(BAD)(
		'%j is refused, naming the item and the field, and nothing is sent',
		async (limit) => {
			const { error, requests } = await runAgainst(sandbox, getMany(limit));
			expect(requests).toEqual([]);
			const shown = typeof limit === 'string' ? `"${limit}"` : JSON.stringify(limit);
			expect(error?.message).toBe(
				`Item 1: Limit (limit) must be a whole number of at least 1, got ${shown}`,
			);
			expect(error?.description).toMatch(/^Nothing was sent to the API/);
		},
	);

	test.each([
		[7, '7'],
		['12', '12'],
		[' 3 ', '3'],
	])('%j is sent as limit=%s', async (limit, sent) => {
		const { error, requests } = await runAgainst(sandbox, getMany(limit));
		expect(error).toBeUndefined();
		expect(requests.map((request) => request.query)).toEqual([{ limit: sent }]);
	});

	test('a large whole number is sent as given: the API decides, and its answer is shown', async () => {
		// The spec shows no maximum; the sandbox takes at most 100, as a real API might.
		const { error, requests } = await runAgainst(sandbox, getMany('1e9'));
		expect(requests.map((request) => request.query)).toEqual([{ limit: '1000000000' }]);
		expect(error?.message).toMatch(
			/^The API refused the request as invalid \(400\): .*\[field: limit\]/,
		);
	});

	test('an empty Limit sends none', async () => {
		const { error, requests } = await runAgainst(sandbox, { ...getMany(''), limit: '' });
		expect(error).toBeUndefined();
		expect(requests.map((request) => request.query)).toEqual([{}]);
	});

	test('as an AI tool: the agent is told, and nothing is sent', async () => {
		sandbox.clearLog();
		const tool = toolOf(
			{
				resource: 'supportCase',
				operation: 'getAll',
				returnAll: false,
				limit: "={{ $fromAI('limit', 'How many cases', 'string') }}",
			},
			{ credentials: credentialsFor(sandbox) },
		);
		await expect(tool.invoke({ limit: '10&status=CLOSED' })).rejects.toThrow(
			'Limit (limit) must be a whole number of at least 1, got "10&status=CLOSED"',
		);
		expect(sandbox.requests()).toEqual([]);
	});
});

describe('the polling trigger watching support cases: Limit', () => {
	test.each(BAD)('%j stops the poll before anything is sent, naming the field', async (limit) => {
		sandbox.clearLog();
		const trigger = startPollHarness({
			parameters: { watch: 'supportCase', limit: `={{ ${JSON.stringify(limit)} }}` },
			credentials: credentialsFor(sandbox),
		});
		const { items, error } = await trigger.activate();
		expect(items).toBeNull();
		const shown = typeof limit === 'string' ? `"${limit}"` : JSON.stringify(limit);
		expect(error?.message).toBe(`Limit (limit) must be a whole number of at least 1, got ${shown}`);
		expect(sandbox.requests()).toEqual([]);
	});
});
