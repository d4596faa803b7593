import { BadRequestException, ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { AUTH_MESSAGES, CART_MESSAGES, GUEST_ID_PATTERN } from '@shop/contracts';
import type { AuthUser } from '@shop/nest-common';
import type { CartOwner } from './storage/cart-store';

export function guestOwner(guestId: string | undefined): CartOwner {
  if (guestId === undefined) throw new BadRequestException(CART_MESSAGES.guestIdRequired);
  if (!GUEST_ID_PATTERN.test(guestId)) throw new BadRequestException(CART_MESSAGES.invalidGuestId);
  return { kind: 'guest', id: guestId };
}

/**
 * Whose cart a request is about (docs/api.md#whose-cart): with a token, its user's — a different `userId`
 * is 403 and a `guestId` is ignored, so a guest id never reaches a user's cart; without a token, the
 * guest cart of a well-formed `guestId`, and a `userId` alone is 401. A presented but bad token never
 * gets here: the guard answers 401 first.
 */
export function cartOwner(user: AuthUser | undefined, ids: { userId?: string; guestId?: string }): CartOwner {
  if (user) {
    if (ids.userId !== undefined && ids.userId !== user.id) throw new ForbiddenException(CART_MESSAGES.notYourCart);
    return { kind: 'user', id: user.id };
  }
  if (ids.userId !== undefined) throw new UnauthorizedException(AUTH_MESSAGES.noToken);
  return guestOwner(ids.guestId);
}
