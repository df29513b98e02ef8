// One sandbox per test file: the setup most sandbox test files share, in one place.
import { type ApiClient, apiClient } from './apiClient';
import { type Sandbox, type SandboxOptions, startSandbox } from './index';

export interface PerFileSandbox {
	sandbox: Sandbox;
	/** apiClient(sandbox): organization A's full key. */
	api: ApiClient;
}

/**
 * Registers the jest hooks for one sandbox shared by every test in the calling file: started with
 * `options` before the first test, reset after each test (no test sees another's records, faults or
 * modes), closed after the last. Call it once at a file's top level (`const t = sandboxPerFile()`)
 * and read `t.sandbox` / `t.api` only in tests and hooks: they are set when beforeAll has run.
 */
export function sandboxPerFile(options?: SandboxOptions): PerFileSandbox {
	const shared = {} as PerFileSandbox;
	beforeAll(async () => {
		shared.sandbox = await startSandbox(options);
		shared.api = apiClient(shared.sandbox);
	});
	afterEach(() => shared.sandbox.admin.reset());
	afterAll(() => shared.sandbox.close());
	return shared;
}
