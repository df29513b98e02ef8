import {
	sendApiRequest,
	type Transport,
} from '../../../../nodes/PartnerLogistics/pipeline/request/transport';

const transport = {
	baseUrl: 'http://127.0.0.1:9/api/v1',
	timeoutMs: 1000,
	skipSslCertificateValidation: false,
} as Transport; // the sender is the test's own: no credential is read

const failingWith = (error: unknown) => async () => await Promise.reject(error);

describe('a request that got no answer is named by its error code', () => {
	test.each([
		['n8n 2.x: the axios error as the cause', { message: 'x', cause: { code: 'ECONNRESET' } }],
		[
			"n8n 1.x: n8n's NodeApiError without the cause, the code in httpCode",
			{
				message: 'The connection to the server was closed unexpectedly, perhaps it is offline.',
				httpCode: 'ECONNRESET',
			},
		],
		['only the message says it', { message: 'socket hang up' }],
	])('%s', async (_name, error) => {
		const exchange = await sendApiRequest(failingWith(error), transport, {
			method: 'GET',
			url: '/hubs',
			itemIndex: 0,
		});
		expect(exchange).toEqual({ fault: 'ECONNRESET' });
	});

	test('an error with no code it knows is EUNKNOWN, never retried as a lost connection', async () => {
		const exchange = await sendApiRequest(failingWith({ httpCode: '500' }), transport, {
			method: 'GET',
			url: '/hubs',
			itemIndex: 0,
		});
		expect(exchange).toEqual({ fault: 'EUNKNOWN' });
	});
});
