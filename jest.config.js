// One jest run over every workspace, so `npm test` ends with one summary. Projects are found, not
// listed: any packages/*, services/* or other folder below with a jest.config.js takes part.
const fs = require('node:fs');
const path = require('node:path');

const dirs = ['packages', 'services'].flatMap((group) =>
  fs.readdirSync(path.join(__dirname, group)).map((name) => path.join(group, name)),
);
const projects = [...dirs, 'gateway', 'web', 'scripts/checks', 'e2e']
  .filter((dir) => fs.existsSync(path.join(__dirname, dir, 'jest.config.js')))
  .map((dir) => `<rootDir>/${dir}`);

module.exports = {
  projects,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
  testTimeout: 30000,
};
