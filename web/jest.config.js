// The web app's tests: jsdom + React Testing Library, TypeScript/TSX through the shared SWC preset.
const path = require('node:path');

const preset = require('../jest.preset')(__dirname);

module.exports = require('../jest.preset')(__dirname, {
  testEnvironment: 'jsdom',
  setupFiles: [],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
  // axios's ES modules, for the browser build's axios (web/axios-browser.mjs and its spec)
  transform: {
    ...preset.transform,
    '^.+\\.mjs$': preset.transform['^.+\\.(t|j)sx?$'],
  },
  transformIgnorePatterns: ['/node_modules/(?!axios/lib/)'],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    '^@shop/contracts$': path.join(__dirname, '../packages/contracts/src/index.ts'),
    '\\.(css|svg|png)$': '<rootDir>/src/test/file-stub.ts',
  },
});
