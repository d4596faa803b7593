import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { AUTH_MESSAGES, WISHLIST_MESSAGES } from '@shop/contracts';
import type { AuthUser } from '@shop/nest-common';
import { guestOwner } from '../cart/cart-owner';
import type { CartOwner } from '../cart/storage/cart-store';

/**
 * Whose wishlist, by the cart's rules: with a token, its user's (a different `userId` → 403; a `guestId` beside the
 * token is ignored, so a guest id never reaches a user's list); without one, the guest list of a well-formed
 * `guestId`, and a `userId` alone → 401. A presented but bad token never gets here: the guard answers 401 first.
 */
export function wishlistOwner(user: AuthUser | undefined, ids: { userId?: string; guestId?: string }): CartOwner {
  if (user) {
    if (ids.userId !== undefined && ids.userId !== user.id) throw new ForbiddenException(WISHLIST_MESSAGES.notYours);
    return { kind: 'user', id: user.id };
  }
  if (ids.userId !== undefined) throw new UnauthorizedException(AUTH_MESSAGES.noToken);
  return guestOwner(ids.guestId);
}
