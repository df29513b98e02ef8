// Unit and engine tests (npm test). The end-to-end suite against real n8n has its own config.
/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// test/e2e/runtime and test/e2e/runtimes/* hold whole n8n installs: keep jest from crawling them.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
	modulePathIgnorePatterns: ['<rootDir>/test/e2e/runtimes?/'],
	watchPathIgnorePatterns: ['<rootDir>/test/e2e/runtimes?/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
	setupFilesAfterEnv: ['<rootDir>/test/harness/setup.ts'],
	testTimeout: 30_000,
};
