// The end-to-end suite against real n8n (npm run test:e2e). One n8n and one sandbox serve every
// spec: globalSetup starts them, globalTeardown stops them, specs run one after another.
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	// Only specs/ is crawled: runtime/ holds a 3 GB n8n install that jest's haste map chokes on.
	roots: ['<rootDir>/test/e2e/specs'],
	testMatch: ['**/*.e2e.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/runtime/'],
	modulePathIgnorePatterns: ['<rootDir>/test/e2e/runtime/'],
	watchPathIgnorePatterns: ['<rootDir>/test/e2e/runtime/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
	globalSetup: '<rootDir>/test/e2e/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/setup/globalTeardown.ts',
	testSequencer: '<rootDir>/test/e2e/setup/sequencer.js',
	// One n8n instance: specs run in band, in file order, the secrets check last.
	maxWorkers: 1,
	testTimeout: 120_000,
	slowTestThreshold: 30,
};
