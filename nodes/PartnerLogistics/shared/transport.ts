import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** The credential's Base URL without trailing slashes, so paths can always start with one. */
export function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}
