import { DUMMY_HASH, hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const hash = await hashPassword('Correct horse 1');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain('Correct horse 1');
    await expect(verifyPassword('Correct horse 1', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct horse 1', hash)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'));
  });

  it('never accepts anything against the dummy hash or a malformed one', async () => {
    await expect(verifyPassword('', DUMMY_HASH)).resolves.toBe(false);
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
  });
});
