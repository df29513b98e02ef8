import { pathOf } from '../../nodes/PartnerLogistics/pipeline/operation';
import { pathIdProblem, ProblemError } from '../../nodes/PartnerLogistics/pipeline/problem';

// A path id can only name its own record: the one rule of the node, its tools and the trigger.

describe('pathOf', () => {
	const path = '/partner-api/bookings/{bookingId}/payment';

	test.each([
		['bk_1', '/partner-api/bookings/bk_1/payment'],
		['  bk_1 ', '/partner-api/bookings/bk_1/payment'],
		['a/b', '/partner-api/bookings/a%2Fb/payment'],
		['x?y=1', '/partner-api/bookings/x%3Fy%3D1/payment'],
		['#f', '/partner-api/bookings/%23f/payment'],
		['...', '/partner-api/bookings/.../payment'],
		['%2e%2e', '/partner-api/bookings/%252e%252e/payment'],
		[42, '/partner-api/bookings/42/payment'],
	])('%p stays one segment of its own path', (id, url) => {
		expect(pathOf(path, () => id)).toBe(url);
		// The URL parser keeps it there: no dot segment left to remove.
		expect(new URL(`http://api.test/api/v1${url}`).pathname).toBe(`/api/v1${url}`);
	});

	test.each([
		['..', 'cannot be "." or "..": the request would reach another endpoint of the API'],
		[' . ', 'cannot be "." or "..": the request would reach another endpoint of the API'],
		['', 'is required'],
		['   ', 'is required'],
		[undefined, 'is required'],
		[null, 'is required'],
	])('%p is refused, naming the field', (id, rule) => {
		let thrown: unknown;
		try {
			pathOf(path, () => id);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(ProblemError);
		expect((thrown as ProblemError).problem).toEqual({ field: 'bookingId', value: id, rule });
	});

	test('without the rule, ".." would have sent the request to another endpoint', () => {
		const unchecked = path.replace('{bookingId}', encodeURIComponent('..'));
		expect(new URL(`http://api.test/api/v1${unchecked}`).pathname).toBe(
			'/api/v1/partner-api/payment',
		);
		expect(pathIdProblem('bookingId', '..')?.rule).toMatch(/another endpoint/);
		expect(pathIdProblem('bookingId', 'bk_1')).toBeUndefined();
	});
});
