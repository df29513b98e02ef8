// X-SVC-API-Key -> organization and capabilities.
import { ApiError } from './errors';
import { type Capability, KEY_PROFILES, type KeyName } from './fixtures';
import type { Principal } from './router';
import type { SandboxKeys } from './types';

export function principalsByKey(keys: SandboxKeys): Map<string, Principal> {
	return new Map(
		(Object.keys(KEY_PROFILES) as KeyName[]).map((keyName) => {
			const { org, capabilities } = KEY_PROFILES[keyName];
			const apiKey = keys[keyName];
			return [apiKey, { org, keyName, apiKey, capabilities: new Set(capabilities) }];
		}),
	);
}

export function authenticate(
	principals: Map<string, Principal>,
	header: string | undefined,
): Principal {
	if (!header) {
		throw new ApiError(
			401,
			'MISSING_API_KEY',
			'Send your organization API key in the X-SVC-API-Key header.',
		);
	}
	const principal = principals.get(header);
	if (!principal) {
		throw new ApiError(
			401,
			'INVALID_API_KEY',
			'The API key in X-SVC-API-Key is not valid; it may have been rotated or revoked.',
		);
	}
	return principal;
}

export function requireCapability(
	principal: Principal,
	capability: Capability,
	action: string,
): void {
	if (principal.capabilities.has(capability)) return;
	throw new ApiError(
		403,
		'MISSING_CAPABILITY',
		`This API key lacks the ${capability} capability needed for ${action}; ask your Partner Logistics contact to grant it, or use a key that has it.`,
		{ requiredCapability: capability },
	);
}
