import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	describeFaultCode,
	describeRedirect,
	evidence,
	isUnreachable,
	readBody,
	redact,
} from '../pipeline/errors';
import { secretsOf } from '../pipeline/runSettings';
import {
	credentialTestSender,
	sendApiRequest,
	transportOf,
	type Exchange,
} from '../pipeline/transport';
import { hubGetMany } from '../resources/hub/getAll';

/** How long the Test button waits for the API: a user is looking at the dialog. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

/**
 * The credential's Test button: lists the hubs (GET /partner-api/hubs) through the node's own
 * transport, so a redirect is never followed with the key, and says what an answer other than the
 * list of hubs means. The key and signing secrets never appear in a message.
 */
export async function testApiKey(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const transport = transportOf(data, { timeoutMs: CREDENTIAL_TEST_TIMEOUT_MS });
	if (!/^https?:\/\/[^/\s]+/i.test(transport.baseUrl)) {
		return {
			status: 'Error',
			message:
				'The Base URL must be the API address, starting with https:// (or http://) and ending in /api/v1, e.g. https://logistics.example.com/api/v1',
		};
	}
	const exchange = await sendApiRequest(credentialTestSender(this, data), transport, {
		method: 'GET',
		url: hubGetMany.path,
	});
	const message = testAnswer(exchange, CREDENTIAL_TEST_TIMEOUT_MS);
	return message === undefined
		? { status: 'OK', message: 'Connection successful!' }
		: { status: 'Error', message: redact(message, secretsOf(data)) };
}

/** What the hub list's answer says about the credential: nothing when it is the list (success). */
export function testAnswer(exchange: Exchange, timeoutMs: number): string | undefined {
	if ('fault' in exchange) {
		const advice = isUnreachable(exchange.fault)
			? "Check the credential's Base URL and that this n8n can reach it."
			: 'Try the test again; if it keeps failing, check the Base URL.';
		return `${describeFaultCode(exchange.fault, timeoutMs)} (${exchange.fault}). ${advice}`;
	}
	const { status, body, headers } = exchange.response;
	if (status >= 300 && status < 400) return describeRedirect(status, headers.location).message;
	switch (status) {
		case 401:
			return 'The API key was refused (401). Copy the key again from the partner portal; it may have been rotated or revoked.';
		case 403:
			return 'The API key is valid but may not list hubs (403). Ask your Partner Logistics contact to enable it for this organization.';
		case 404:
			return 'Nothing answers at this Base URL (404). Check that it is the API address and ends in /api/v1.';
		case 429:
			return 'The API is rate limiting this key right now (429). Test again in a moment.';
	}
	if (status >= 500) {
		return `The Partner Logistics API failed (${status}): ${evidence(body)}. Test again later.`;
	}
	if (status >= 300) return `The API answered ${status}: ${evidence(body)}`;
	if (readBody(body) === undefined) {
		const what = body.trim() === '' ? 'an empty answer' : evidence(body);
		return `The Base URL answered ${status} with ${what} instead of the API's list of hubs. Check that the Base URL is the API address ending in /api/v1, not a web page, a sign-in page or a proxy.`;
	}
	return undefined;
}
