import { describeApiError } from '../../nodes/PartnerLogistics/shared/errors';

const quote = { resource: 'quote', operation: 'create' };

test('400 carries the API message and field, and keeps the body', () => {
	const body = {
		code: 'VALIDATION_ERROR',
		message: 'pickupLatitude out of range',
		field: 'pickupLatitude',
	};
	const { message, description } = describeApiError(400, body, quote);
	expect(message).toBe(
		'The API refused the request as invalid (400): pickupLatitude out of range [field: pickupLatitude]. Correct the value and run again.',
	);
	expect(description).toBe(`The API answered 400 with: ${JSON.stringify(body)}`);
});

test('a nested error object and a text body are read too', () => {
	expect(describeApiError(404, { error: { message: 'no such booking' } }, quote).message).toContain(
		': no such booking.',
	);
	expect(describeApiError(502, '<html>Bad gateway</html>', quote).description).toBe(
		'The API answered 502 with: <html>Bad gateway</html>',
	);
});

test('403 names the capability the operation needs', () => {
	expect(
		describeApiError(403, {}, { resource: 'supportCase', operation: 'close' }).message,
	).toMatch(/lacks the capability support:create/);
	expect(describeApiError(403, {}, { resource: 'supportCase', operation: 'get' }).message).toMatch(
		/lacks the capability support:read/,
	);
	expect(describeApiError(403, { message: 'no' }, quote).message).toMatch(
		/not allowed to do this \(403\): no/,
	);
});

test.each([
	[401, /credential/],
	[404, /organization of this API key/],
	[409, /Idempotency-Key/],
	[429, /Max Retries/],
	[500, /nothing is booked or paid twice/],
	[418, /answered 418/],
])('%i tells what to do', (status, advice) => {
	expect(describeApiError(status, undefined, quote).message).toMatch(advice);
	expect(describeApiError(status, undefined, quote).description).toMatch(/\(no body\)$/);
});
