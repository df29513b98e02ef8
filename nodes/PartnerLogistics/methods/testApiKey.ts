import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { credentialTestSession, type Failure } from '../pipeline/request';
import { LIST_HUBS } from './searchHubs';

/** The Test button: the hubs, read as the nodes read (no redirect followed, no secret shown). */
export async function testApiKey(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const api = credentialTestSession(this, credential, testAnswer);
	try {
		if (!/^https?:\/\/[^/\s]+/i.test(api.settings.transport.baseUrl))
			throw new Error(
				'The Base URL must be the API address ending in /api/v1, e.g. https://logistics.example.com/api/v1',
			);
		await api.read(LIST_HUBS, 'the list of hubs');
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

/** What an answer other than the hubs (`said`: described) tells of the credential; none if huge. */
export function testAnswer(failure: Failure, said: string): string | undefined {
	if (failure.kind === 'fault') {
		if (failure.code === 'E_ANSWER_TOO_LARGE') return undefined;
		const advice = failure.unreachable
			? "Check the credential's Base URL and that this n8n can reach it."
			: 'Try the test again; if it keeps failing, check the Base URL.';
		return `${said}. ${advice}`;
	}
	const { status } = failure.response;
	if (failure.kind === 'unexpected')
		return `The Base URL answered ${status} with ${said} instead of the API's list of hubs. Check that it ends in /api/v1.`;
	if (status >= 300 && status < 400)
		return `The API answered with ${said}. Check the credential's Base URL.`;
	if (STATUS_WORDS[status]) return STATUS_WORDS[status];
	if (status >= 500)
		return `The Partner Logistics API failed (${status}): ${said}. Test again later.`;
	return `The API answered ${status}: ${said}`;
}
