import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  Logger,
  ServiceUnavailableException,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { AUTH_MESSAGES, ROLES, type Role, type TokenClaims } from '@shop/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiErrors, BEARER_SCHEME } from '../openapi/decorators';
import { TokenRevocations } from './token-revocations';

/** Who is calling, as the shared guard established it from a verified, unrevoked token. */
export interface AuthUser {
  id: string;
  role: Role;
  name: string;
}

export type AuthenticatedRequest = FastifyRequest & { user?: AuthUser };

const ROLES_KEY = 'shop:roles';
const OPTIONAL_KEY = 'shop:auth-optional';

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function isClaims(value: unknown): value is TokenClaims {
  const c = value as Partial<TokenClaims> | null;
  return (
    !!c &&
    typeof c.sub === 'string' &&
    typeof c.iatMs === 'number' &&
    typeof c.name === 'string' &&
    (ROLES as readonly string[]).includes(c.role as string)
  );
}

/**
 * Verifies the bearer token itself (never trusting a header the gateway set), checks the
 * revocation record, then the role. Missing token → 401 "no token"; bad, expired or revoked
 * → 401 "token failed"; wrong role → 403. On optional routes a missing token is fine, but
 * a presented token must still be valid: it never silently falls back to a guest.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  private readonly logger = new Logger(JwtAuthGuard.name);

  constructor(
    private readonly jwt: JwtService,
    private readonly revocations: TokenRevocations,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const optional = this.reflector.getAllAndOverride<boolean>(OPTIONAL_KEY, targets) ?? false;
    const roles = this.reflector.getAllAndOverride<Role[]>(ROLES_KEY, targets) ?? [];

    const token = bearerToken(req);
    if (!token) {
      if (optional && req.headers.authorization === undefined) return true;
      throw new UnauthorizedException(
        req.headers.authorization === undefined ? AUTH_MESSAGES.noToken : AUTH_MESSAGES.tokenFailed,
      );
    }

    let claims: unknown;
    try {
      claims = await this.jwt.verifyAsync(token, { algorithms: ['HS256'] });
    } catch {
      throw new UnauthorizedException(AUTH_MESSAGES.tokenFailed);
    }
    if (!isClaims(claims)) throw new UnauthorizedException(AUTH_MESSAGES.tokenFailed);

    let revoked: boolean;
    try {
      revoked = await this.revocations.isRevoked(claims);
    } catch (err) {
      // Fail closed: without the revocation record we cannot tell a voided token from a good one.
      this.logger.error(`revocation check failed: ${(err as Error).message}`);
      throw new ServiceUnavailableException('Authorization is temporarily unavailable');
    }
    if (revoked) throw new UnauthorizedException(AUTH_MESSAGES.tokenFailed);

    if (roles.length && !roles.includes(claims.role)) throw new ForbiddenException(AUTH_MESSAGES.notAdmin);
    req.user = { id: claims.sub, role: claims.role, name: claims.name };
    return true;
  }
}

/** Read back by the OpenAPI completeness test: which roles a route requires, or whether its token is optional. */
export const AUTH_METADATA = { roles: ROLES_KEY, optional: OPTIONAL_KEY } as const;

/** `@Auth()` any signed-in user; `@Auth('admin')` admins only. Also marks the route in the OpenAPI document. */
export function Auth(...roles: Role[]) {
  return applyDecorators(
    SetMetadata(ROLES_KEY, roles),
    UseGuards(JwtAuthGuard),
    ApiBearerAuth(BEARER_SCHEME),
    ApiErrors(401, ...(roles.length ? [403] : []), 503),
  );
}

/** A signed-in user or a guest; a presented token must be valid. The document offers both (no token, or bearer). */
export function OptionalAuth() {
  return applyDecorators(
    SetMetadata(OPTIONAL_KEY, true),
    UseGuards(JwtAuthGuard),
    ApiSecurity({}),
    ApiBearerAuth(BEARER_SCHEME),
    ApiErrors({ 401: 'Not authorized, token failed (a token was presented but is invalid, expired or revoked)' }, 503),
  );
}

/** The caller established by the guard (undefined for a guest on an optional route). */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
});
