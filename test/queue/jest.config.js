// The queue-mode suite against real n8n (npm run test:queue): Postgres, Redis, one n8n main, one
// worker and two webhook processes, started once by globalSetup and shared by every spec.
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	// Only specs/ is crawled: test/e2e/runtime holds a 3 GB n8n install.
	roots: ['<rootDir>/test/queue/specs'],
	testMatch: ['**/*.queue.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/runtime/'],
	modulePathIgnorePatterns: ['<rootDir>/test/e2e/runtime/'],
	watchPathIgnorePatterns: ['<rootDir>/test/e2e/runtime/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
	globalSetup: '<rootDir>/test/queue/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/queue/setup/globalTeardown.ts',
	// One stack: specs run in band, in file name order.
	testSequencer: '<rootDir>/test/queue/setup/sequencer.js',
	maxWorkers: 1,
	testTimeout: 300_000,
	slowTestThreshold: 60,
};
