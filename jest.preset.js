// Shared jest settings for every workspace: TypeScript through SWC (with the
// decorator metadata NestJS needs), workspace packages resolved from source.
const path = require('node:path');

module.exports = function preset(dir, overrides = {}) {
  return {
    displayName: path.relative(__dirname, dir),
    rootDir: dir,
    testEnvironment: 'node',
    setupFiles: [require.resolve('reflect-metadata')],
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', decorators: true, tsx: true },
            transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
            target: 'es2022',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      '^@shop/contracts$': path.join(__dirname, 'packages/contracts/src/index.ts'),
      '^@shop/catalog-read-model$': path.join(__dirname, 'packages/catalog-read-model/src/index.ts'),
      '^@shop/nest-common$': path.join(__dirname, 'packages/nest-common/src/index.ts'),
      '^@shop/nest-common/testing$': path.join(__dirname, 'packages/nest-common/src/testing/index.ts'),
      '^@shop/nest-common/logging$': path.join(__dirname, 'packages/nest-common/src/logging/logger.ts'),
      '^@shop/fake-paypal$': path.join(__dirname, 'packages/fake-paypal/src/index.ts'),
    },
    ...overrides,
  };
};
