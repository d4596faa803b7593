// One jest run over every workspace, so `npm test` ends with one summary.
module.exports = {
  projects: [
    '<rootDir>/packages/contracts',
    '<rootDir>/packages/nest-common',
    '<rootDir>/services/catalog',
    '<rootDir>/services/identity',
    '<rootDir>/gateway',
    '<rootDir>/scripts/checks',
    '<rootDir>/e2e',
  ],
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
  testTimeout: 30000,
};
