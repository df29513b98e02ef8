import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { credentialTestSession } from '../pipeline/request';
import { LIST_HUBS } from './searchHubs';

/** The Test button: the hubs, read as the nodes read (no redirect followed, no secret shown). */
export async function testApiKey(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const api = credentialTestSession(this, credential);
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
