// Tests run against DATABASE_URL when it is set (CI: a database per test file, cloned from a
// migrated template) and against an embedded PGlite otherwise (one shared session, so one worker).
const embedded = !process.env.DATABASE_URL;
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: embedded ? 1 : 2,
  testTimeout: 60000,
};
