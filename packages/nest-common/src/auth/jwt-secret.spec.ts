// The JwtModule's key (jwt-secret.ts) must be the same key as the JWT_SECRET string: tokens signed before a deploy,
// or by a replica not yet restarted, keep working both ways.
import { JwtService } from '@nestjs/jwt';
import { jwtSecretKey } from './jwt-secret';

const SECRET = 'a-secret-of-the-key-spec-0123456789-é';
const claims = { sub: '64b7f9f9f9f9f9f9f9f9f9fa', role: 'customer' };
const withString = new JwtService({ secret: SECRET, signOptions: { algorithm: 'HS256' } });
const withKey = new JwtService({ secret: jwtSecretKey(SECRET), signOptions: { algorithm: 'HS256' } });
const verifyOptions = { algorithms: ['HS256' as const] };

describe('the JWT secret as a key object', () => {
  it('signs the very token the string signs, and each verifies the other', async () => {
    const iat = 1_700_000_000;
    expect(withKey.sign({ ...claims, iat })).toBe(withString.sign({ ...claims, iat }));
    await expect(withKey.verifyAsync(withString.sign(claims), verifyOptions)).resolves.toMatchObject(claims);
    await expect(withString.verifyAsync(withKey.sign(claims), verifyOptions)).resolves.toMatchObject(claims);
  });

  it('still refuses a token signed with another secret, or forged with alg none', async () => {
    const other = new JwtService({ secret: jwtSecretKey(`${SECRET}!`), signOptions: { algorithm: 'HS256' } });
    await expect(withKey.verifyAsync(other.sign(claims), verifyOptions)).rejects.toThrow('invalid signature');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify(claims),
    ).toString('base64url')}.`;
    await expect(withKey.verifyAsync(unsigned, verifyOptions)).rejects.toThrow();
  });
});
