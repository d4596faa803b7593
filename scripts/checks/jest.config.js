module.exports = require('../../jest.preset')(__dirname, { testMatch: ['<rootDir>/*.spec.ts'] });
