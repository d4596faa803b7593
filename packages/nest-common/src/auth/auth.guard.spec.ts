// The one guard every service runs (docs/security.md): what a token must be, and what is never trusted instead.
import { ForbiddenException, ServiceUnavailableException, UnauthorizedException } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { AUTH_MESSAGES } from '@shop/contracts';
import { createHmac } from 'node:crypto';
import { Auth, JwtAuthGuard, OptionalAuth, type AuthenticatedRequest } from './auth.guard';
import type { TokenRevocations } from './token-revocations';

const SECRET = 'a-secret-of-the-guard-spec-0123456789';
const jwt = new JwtService({ secret: SECRET, signOptions: { algorithm: 'HS256' } });
const claims = { sub: '64b7f9f9f9f9f9f9f9f9f9fa', role: 'customer', name: 'Casey', iatMs: Date.now() };

class Routes {
  @Auth() signedIn() {}
  @Auth('admin') adminOnly() {}
  @OptionalAuth() guestOrUser() {}
}

function contextFor(handler: keyof Routes, headers: Record<string, string>) {
  const req = { headers } as unknown as AuthenticatedRequest;
  const context = {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return { req, context };
}

/** A token with any header and payload, signed with the given secret (HS256 unless said otherwise). */
function forge(header: object, payload: object, secret = SECRET): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${enc(header)}.${enc(payload)}`;
  if ((header as { alg?: string }).alg === 'none') return `${body}.`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('JwtAuthGuard', () => {
  let revokedBefore: number | undefined;
  let redisDown = false;
  const revocations = {
    isRevoked: async (c: { iatMs: number }) => {
      if (redisDown) throw new Error('Connection is closed.');
      return revokedBefore !== undefined && c.iatMs < revokedBefore;
    },
  } as unknown as TokenRevocations;
  const guard = new JwtAuthGuard(jwt, revocations, new Reflector());
  beforeEach(() => {
    revokedBefore = undefined;
    redisDown = false;
  });

  const run = (handler: keyof Routes, headers: Record<string, string>) => {
    const { req, context } = contextFor(handler, headers);
    return guard.canActivate(context).then(() => req.user);
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('lets a valid token through and takes the caller from it alone', async () => {
    expect(await run('signedIn', bearer(jwt.sign(claims)))).toEqual({
      id: claims.sub,
      role: 'customer',
      name: 'Casey',
    });
  });

  it('never trusts a header the gateway or a client set instead of a token', async () => {
    const headers = { 'x-user-id': claims.sub, 'x-user-role': 'admin', 'x-forwarded-user': claims.sub };
    await expect(run('signedIn', headers)).rejects.toThrow(new UnauthorizedException(AUTH_MESSAGES.noToken));
  });

  it.each<[string, () => string]>([
    ['signed with another secret', () => jwt.sign(claims, { secret: 'another-secret-0123456789abcdef' })],
    ['unsigned (alg none)', () => forge({ alg: 'none', typ: 'JWT' }, claims)],
    ['signed with HS512 instead of HS256', () => jwt.sign(claims, { algorithm: 'HS512' })],
    ['expired', () => jwt.sign(claims, { expiresIn: -10 })],
    ['missing its role', () => jwt.sign({ ...claims, role: undefined })],
    ['claiming a role that does not exist', () => jwt.sign({ ...claims, role: 'superuser' })],
    [
      'tampered with (role changed after signing)',
      () => {
        const [h, , s] = jwt.sign(claims).split('.');
        return `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${s}`;
      },
    ],
  ])('refuses a token %s with 401, also where a token is optional', async (_what, token) => {
    const refused = new UnauthorizedException(AUTH_MESSAGES.tokenFailed);
    await expect(run('signedIn', bearer(token()))).rejects.toThrow(refused);
    await expect(run('guestOrUser', bearer(token()))).rejects.toThrow(refused);
  });

  it('refuses a token issued before its user’s revocation record (role change, deletion), accepts a later one', async () => {
    revokedBefore = claims.iatMs + 1;
    await expect(run('signedIn', bearer(jwt.sign(claims)))).rejects.toThrow(UnauthorizedException);
    const fresh = jwt.sign({ ...claims, iatMs: revokedBefore + 1 });
    expect(await run('signedIn', bearer(fresh))).toMatchObject({ id: claims.sub });
  });

  it('fails closed with 503 when the revocation record cannot be read', async () => {
    redisDown = true;
    await expect(run('signedIn', bearer(jwt.sign(claims)))).rejects.toThrow(ServiceUnavailableException);
  });

  it('answers 403 to a customer on an admin route, and lets an admin through', async () => {
    await expect(run('adminOnly', bearer(jwt.sign(claims)))).rejects.toThrow(
      new ForbiddenException(AUTH_MESSAGES.notAdmin),
    );
    expect(await run('adminOnly', bearer(jwt.sign({ ...claims, role: 'admin' })))).toMatchObject({ role: 'admin' });
  });

  it('lets a guest through an optional route only without any Authorization header', async () => {
    expect(await run('guestOrUser', {})).toBeUndefined();
    await expect(run('guestOrUser', { authorization: 'Basic abc' })).rejects.toThrow(UnauthorizedException);
  });
});
