import {
	describeApiError,
	describeFault,
	describeLongRetryAfter,
	describeRedirect,
	describeUnexpectedBody,
	MAX_MESSAGE_CHARS,
} from '../../nodes/PartnerLogistics/pipeline/request/errors';
import {
	evidence,
	MAX_DESCRIPTION_CHARS,
} from '../../nodes/PartnerLogistics/pipeline/request/evidence';

const plain = {};

test('400 carries the API message and field, and keeps the body', () => {
	const body = JSON.stringify({
		code: 'VALIDATION_ERROR',
		message: 'pickupLatitude out of range',
		field: 'pickupLatitude',
	});
	const { message, description } = describeApiError(400, body, plain);
	expect(message).toBe(
		'The API refused the request as invalid (400): pickupLatitude out of range [field: pickupLatitude].',
	);
	expect(description).toBe(`Correct the value and run again. The API answered 400 with: ${body}`);
});

test('a nested error object is read; an HTML page is reduced to its title', () => {
	expect(
		describeApiError(404, JSON.stringify({ error: { message: 'no such booking' } }), plain).message,
	).toContain(': no such booking.');
	const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(5000)}</body></html>`;
	const { message, description } = describeApiError(502, page, plain);
	expect(message).toBe('The Partner Logistics API failed (502). Try again later.');
	expect(description).toBe(
		'A retry sends the same Idempotency-Key, so nothing is booked or paid twice. The API answered 502 with: an HTML page titled "502 Bad Gateway"',
	);
});

test('403 names the capability the operation declares', () => {
	expect(describeApiError(403, '{}', { capability: 'support:create' }).message).toMatch(
		/lacks the capability support:create/,
	);
	expect(describeApiError(403, '{"message":"no"}', plain).message).toMatch(
		/not allowed to do this \(403\): no/,
	);
});

test.each([
	[401, /credential\.$/, /^It may have been rotated or revoked\./],
	[
		403,
		/Ask your contact which capability it needs\.$/,
		/^Your Partner Logistics contact can grant/,
	],
	[404, /Check the ID\.$/, /^The API only shows resources that belong to the organization/],
	[409, /Options › Idempotency Key/, /^Either this Idempotency-Key was already used/],
	[429, /Lower Options › Concurrency/, /^Sending fewer items per run helps too\./],
	[500, /Try again later\.$/, /^A retry sends the same Idempotency-Key, so nothing is booked/],
	[418, /answered 418/, /^The API answered 418/],
])('%i: the message says what to do in a line, the description why', (status, advice, why) => {
	const { message, description } = describeApiError(status, '', plain);
	expect(message).toMatch(advice);
	expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
	expect(description).toMatch(why);
	expect(description).toMatch(/\(no body\)$/);
});

test('evidence is capped, and secrets are redacted wherever they appear', () => {
	const long = JSON.stringify({ message: 'y'.repeat(10_000) });
	expect(evidence(long).length).toBeLessThan(MAX_DESCRIPTION_CHARS + 100);
	expect(evidence(long)).toMatch(/more characters cut\)$/);
	const leaky = '{"message":"key sk_live_123456 is invalid","echo":"sk_live_123456"}';
	const { message, description } = describeApiError(400, leaky, plain, ['sk_live_123456']);
	expect(`${message} ${description}`).not.toContain('sk_live_123456');
	expect(description).toContain('[redacted]');
});

test('a redirect names where it pointed, without query or credentials', () => {
	const { message } = describeRedirect(302, 'https://user:pw@evil.example/login?token=abc');
	expect(message).toContain('https://evil.example/login');
	expect(message).not.toMatch(/token|pw/);
	expect(message).toMatch(/not followed so the API key stays here/);
});

test('a 2xx that is not JSON says what came back', () => {
	expect(describeUnexpectedBody(200, '', 'a JSON record').message).toMatch(
		/^The API answered 200 with an empty body where a JSON record was expected/,
	);
	const html = describeUnexpectedBody(200, '<html><title>Login</title></html>', 'a JSON record');
	expect(html.message).toMatch(/a non-JSON body/);
	expect(html.description).toBe(
		'Nothing is output for this item; a web page or a proxy answers like this. The API answered 200 with: an HTML page titled "Login"',
	);
});

test('faults say whether running again is safe', () => {
	const broke = describeFault('ECONNRESET', 3, { timeoutMs: 30_000, mutating: true });
	expect(broke.message).toBe(
		'The connection to the API broke before it answered after 3 retries. Running the item again is safe.',
	);
	expect(broke.description).toBe(
		'The API may have processed the request: running it again resends the same Idempotency-Key, so nothing is booked or paid twice. Connection fault: ECONNRESET',
	);
	expect(describeFault('ECONNABORTED', 0, { timeoutMs: 2000, mutating: false }).message).toMatch(
		/^No answer from the API within 2 s \(timeout\)\. Try again later/,
	);
	expect(describeFault('ECONNREFUSED', 0, { timeoutMs: 1, mutating: true }).message).toMatch(
		/Check the credential's Base URL/,
	);
});

test('a Retry-After beyond the wait limit is said as it is, not as "raise Max Retries"', () => {
	const { message } = describeLongRetryAfter(120_000, 60_000);
	expect(message).toMatch(/asked to wait 120 s .* longer than the 60 s this node waits/);
	expect(message).not.toMatch(/Max Retries/);
});

test("every message fits in one line of MAX_MESSAGE_CHARS: the API's words cut to fit", () => {
	const said = JSON.stringify({
		message: `${'a long reason '.repeat(30)}end`,
		field: 'stops[2].latitude',
	});
	const messages = [
		...[400, 401, 403, 404, 409, 418, 429, 500, 503].flatMap((status) => [
			describeApiError(status, said, plain).message,
			describeApiError(status, said, { capability: 'support:create', referent: 'Quote ID qt_7' })
				.message,
		]),
		...[
			'ECONNRESET',
			'ETIMEDOUT',
			'E_ANSWER_STALLED',
			'ECONNREFUSED',
			'E_ANSWER_TOO_LARGE',
		].flatMap((code) =>
			[true, false].map(
				(mutating) =>
					describeFault(code, 10, { timeoutMs: 30_000, mutating, bytes: 104_857_601 }).message,
			),
		),
		describeUnexpectedBody(200, '<html></html>', 'a JSON list of haulage quotations').message,
		describeLongRetryAfter(3_600_000, 60_000, { toolCall: true }).message,
	];
	for (const message of messages) expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
	expect(describeApiError(400, said, plain)).toEqual({
		message: expect.stringMatching(/: a long reason .*… \[field: stops\[2\]\.latitude\]\.$/),
		description: `Correct the value and run again. The API answered 400 with: ${said}`,
	});
	expect(describeApiError(409, said, { referent: 'Quote ID qt_7' }).message).toBe(
		'Conflict (409). To send other values for Quote ID qt_7 as a new request, set Options › Idempotency Key.',
	);
	const fits = JSON.stringify({ message: 'Dropoff is outside the area', field: 'dropoffAddress' });
	expect(describeApiError(400, fits, plain).message).toBe(
		'The API refused the request as invalid (400): Dropoff is outside the area [field: dropoffAddress].',
	);
});
