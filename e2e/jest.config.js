// Journeys through the running shop. globalSetup starts the whole stack on test ports (scripts/lib/stack.mjs,
// the same code as `npm start`) and tells the tests where it is through E2E_* environment variables.
// (Per-test timeouts are set in the specs with jest.setTimeout: `testTimeout` is a global option that a
// project config in a multi-project run cannot set.)
module.exports = require('../jest.preset')(__dirname, {
  globalSetup: '<rootDir>/global-setup.mjs',
  globalTeardown: '<rootDir>/global-teardown.mjs',
});
