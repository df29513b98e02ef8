import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CredentialTestContext } from 'n8n-core';

import { testAnswer } from '../../nodes/PartnerLogistics/methods/testApiKey';
import {
	credentialTestSender,
	sendApiRequest,
	transportOf,
} from '../../nodes/PartnerLogistics/pipeline/request/transport';
import { startSandbox, type Sandbox } from '../sandbox';
import { testCredential } from '../harness';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(async () => await sandbox.close());

describe('credential test (GET /partner-api/hubs, as n8n runs it)', () => {
	test('passes with a good key', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		const [request] = sandbox.requests({ path: '/partner-api/hubs' }).slice(-1);
		expect(request.headers['x-svc-api-key']).toBe(sandbox.keys.full);
	});

	test('tolerates a trailing slash on the Base URL', async () => {
		const result = await testCredential({ baseUrl: `${sandbox.url}//`, apiKey: sandbox.keys.full });
		expect(result.status).toBe('OK');
	});

	test('a wrong key fails with a message a non-developer can act on', async () => {
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: 'not-a-key' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/API key was refused \(401\).*partner portal/);
		expect(result.message).not.toContain('not-a-key');
	});

	test('a Base URL without /api/v1 fails saying so', async () => {
		const result = await testCredential({ baseUrl: sandbox.origin, apiKey: sandbox.keys.full });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/Base URL \(404\).*ends in \/api\/v1/),
		});
	});

	test('an address where nothing listens fails without hanging', async () => {
		const result = await testCredential({
			baseUrl: 'http://127.0.0.1:9/api/v1',
			apiKey: sandbox.keys.full,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/ECONNREFUSED|refused/i);
	});
});

describe('credential test: nothing but the list of hubs passes, and the key stays home', () => {
	afterEach(() => sandbox.admin.setFaults({}));

	test.each([301, 302, 307, 308] as const)(
		'a %i to another host is not followed: nothing reaches it, the message names it',
		async (status) => {
			sandbox.redirectTarget.clear();
			sandbox.admin.setFaults({
				failNext: [{ kind: 'redirect', status, method: 'GET', path: '/partner-api/hubs' }],
			});
			const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
			expect(result.status).toBe('Error');
			expect(result.message).toContain(
				`redirect (${status}) to ${sandbox.redirectTarget.origin}/api/v1/partner-api/hubs`,
			);
			expect(result.message).toContain('not followed');
			expect(sandbox.redirectTarget.requests()).toEqual([]);
		},
	);

	test('a key without the right to list hubs (403) is told apart from a wrong key', async () => {
		sandbox.admin.setFaults({
			failNext: [
				{ kind: 'refuse', status: 403, code: 'MISSING_CAPABILITY', path: '/partner-api/hubs' },
			],
		});
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/valid but.*\(403\)/),
		});
	});

	test('a sign-in page answering 200 is not a success', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'html200', path: '/partner-api/hubs' }] });
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('an HTML page titled "Partner Logistics | Sign in"');
		expect(result.message).toMatch(/instead of the API's list of hubs/);
	});

	test('an empty 200 is not a success either', async () => {
		sandbox.admin.setFaults({ failNext: [{ kind: 'empty200', path: '/partner-api/hubs' }] });
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
		expect(result.message).toMatch(/200 with an empty answer/);
	});

	test('a failing API says so and asks to test again later', async () => {
		sandbox.admin.setFaults({ failNext: [{ status: 503, path: '/partner-api/hubs' }] });
		const result = await testCredential({ baseUrl: sandbox.url, apiKey: sandbox.keys.full });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^The Partner Logistics API failed \(503\).*Test again later\.$/,
			),
		});
	});

	test('a Base URL that is not a web address is refused before anything is sent', async () => {
		const before = sandbox.requests().length;
		for (const baseUrl of ['', 'logistics.example.com/api/v1', 'ftp://example.com/api/v1']) {
			const result = await testCredential({ baseUrl, apiKey: sandbox.keys.full });
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringMatching(/^The Base URL must be the API address/),
			});
		}
		expect(sandbox.requests().length).toBe(before);
	});

	test('an answer echoing the key never shows it', async () => {
		const echo = createServer((request, response) => {
			response.writeHead(500, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ message: `bad key ${request.headers['x-svc-api-key']}` }));
		});
		await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = echo.address() as AddressInfo;
			const apiKey = sandbox.keys.full;
			const result = await testCredential({ baseUrl: `http://127.0.0.1:${port}/api/v1`, apiKey });
			expect(result.message).toContain('(500)');
			expect(result.message).toContain('[redacted]');
			expect(result.message).not.toContain(apiKey);
		} finally {
			await new Promise((resolve) => echo.close(resolve));
		}
	});

	test('a timeout is told as one', async () => {
		// The Test button waits 15 s; the same sender with a shorter timeout shows the fault it
		// gets from n8n's legacy request helper, and the words the test then shows.
		sandbox.admin.setFaults({
			failNext: [{ kind: 'slow', delayMs: 2000, path: '/partner-api/hubs' }],
		});
		const data = { baseUrl: sandbox.url, apiKey: sandbox.keys.full };
		const exchange = await sendApiRequest(
			credentialTestSender(new CredentialTestContext(undefined as never), data),
			transportOf(data, { timeoutMs: 300 }),
			{ method: 'GET', url: '/partner-api/hubs' },
		);
		// n8n's own timer and the attempt's deadline end at the same moment: either names it a timeout.
		expect(['ETIMEDOUT', 'ECONNABORTED']).toContain((exchange as { fault: string }).fault);
		const fault = {
			kind: 'fault',
			code: 'ETIMEDOUT',
			timeoutMs: 15_000,
			unreachable: false,
		} as const;
		expect(testAnswer(fault)).toBe(
			'No answer from the API within 15 s (timeout) (ETIMEDOUT). Try the test again; if it keeps failing, check the Base URL.',
		);
	});
});
