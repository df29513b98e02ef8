import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { credentialTestSession, describeFailure, type Failure } from '../pipeline/request';
import { hubGetMany } from '../resources/hub/getAll';

/**
 * The credential's Test button: lists the hubs (GET /partner-api/hubs) through the node's own
 * request path, so a redirect is never followed with the key and no secret appears in a message.
 */
export async function testApiKey(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const api = credentialTestSession(this, credential, testAnswer);
	if (!/^https?:\/\/[^/\s]+/i.test(api.settings.transport.baseUrl)) {
		return {
			status: 'Error',
			message:
				'The Base URL must be the API address ending in /api/v1, e.g. https://logistics.example.com/api/v1',
		};
	}
	try {
		await api.read({ method: 'GET', url: hubGetMany.path, itemIndex: 0 }, 'the list of hubs');
		return { status: 'OK', message: 'Connection successful!' };
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
}

/** Statuses the Test dialog advises on in its own words. */
const STATUS_WORDS: Record<number, string> = {
	401: 'The API key was refused (401). Copy the key again from the partner portal; it may have been rotated or revoked.',
	403: 'The API key is valid but may not list hubs (403). Ask your Partner Logistics contact to enable it for this organization.',
	404: 'Nothing answers at this Base URL (404). Check that it is the API address and ends in /api/v1.',
	429: 'The API is rate limiting this key right now (429). Test again in a moment.',
};

/** What an answer other than the hubs says of the credential; nothing for an answer too large. */
export function testAnswer(failure: Failure): string | undefined {
	const said = describeFailure(failure);
	if (failure.kind === 'fault') {
		if (failure.code === 'E_ANSWER_TOO_LARGE') return undefined;
		const advice = failure.unreachable
			? "Check the credential's Base URL and that this n8n can reach it."
			: 'Try the test again; if it keeps failing, check the Base URL.';
		return `${said}. ${advice}`;
	}
	const { status } = failure.response;
	if (failure.kind === 'unexpected') {
		return `The Base URL answered ${status} with ${said} instead of the API's list of hubs. Check that it ends in /api/v1.`;
	}
	if (status >= 300 && status < 400) {
		return `The API answered with ${said}. Check the credential's Base URL.`;
	}
	if (STATUS_WORDS[status]) return STATUS_WORDS[status];
	if (status >= 500)
		return `The Partner Logistics API failed (${status}): ${said}. Test again later.`;
	return `The API answered ${status}: ${said}`;
}
