import { isDuplicateKeyError } from './mongo-errors';

describe('isDuplicateKeyError', () => {
  it.each([
    [{ code: 11000, message: 'E11000 duplicate key error collection: shop.users' }, true],
    [{ writeErrors: [{ code: 11000 }] }, true],
    [new Error('UNIQUE constraint failed: users_abc.email'), true],
    [{ code: 2, message: 'BadValue' }, false],
    [new Error('connection reset'), false],
    [null, false],
    ['E11000', false],
  ])('%p → %p', (err, expected) => {
    expect(isDuplicateKeyError(err)).toBe(expected);
  });
});
