import { plainGuestReadId } from '@shop/cart-model';
import { GUEST_ID_PATTERN, MAX_CART_LINE_QUANTITY } from '@shop/contracts';
import type { CartOwner } from '../storage/cart-store';

/**
 * The guest lane's shortcut past the ValidationPipe (class-transformer + class-validator cost a sixth of a guest
 * add's CPU, profiled: docs/performance.md "Performance: cart"). Each function recognises only input that the pipe
 * would accept unchanged and cartOwner() would give to a guest, and returns what they would make of it; anything
 * else — every input the pipe or cartOwner would refuse, and some they would accept — is undefined, and the lane
 * then runs the pipe, so every error message stays the pipe's. test/well-formed.spec.ts holds each answer against
 * the pipe's.
 */

/** ProductIdField, after its trim and lower-casing. */
const PRODUCT_ID = /^[0-9a-f]{24}$/;
/** OptionField's MaxLength: a string this many UTF-16 units long or shorter passes it whatever it holds. */
const MAX_OPTION_LENGTH = 50;

/**
 * Whose cart a guest read's query names, when it is just a well-formed guestId (the shared package's test, which
 * the gateway's guest reads use too).
 */
export function wellFormedGuestRead(query: string): CartOwner | undefined {
  const guestId = plainGuestReadId(query);
  return guestId === undefined ? undefined : { kind: 'guest', id: guestId };
}

export interface GuestAdd {
  owner: CartOwner;
  line: { productId: string; quantity: number; size?: string; color?: string };
}

/** An option (size, colour) as OptionField gives it: absent, or trimmed text of at most 50 units. */
function option(value: unknown): string | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length <= MAX_OPTION_LENGTH ? trimmed : null;
}

/**
 * A guest add's parsed body (after jsonBodyProblem) as AddToCartDto and cartOwner() would give it, when every field
 * is plainly right: productId a 24-hex id (any case, spaces around), quantity an integer 1–99, size and colour
 * absent or short text, a well-formed guestId, no userId (or the null / '' that Rabbit-family clients send). Other
 * fields are ignored, as the pipe's whitelist strips them.
 */
export function wellFormedGuestAdd(body: unknown): GuestAdd | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { productId, quantity, size, color, guestId, userId } = body as Record<string, unknown>;
  if (typeof productId !== 'string' || typeof guestId !== 'string') return undefined;
  if (!(userId === undefined || userId === null || userId === '')) return undefined;
  if (typeof quantity !== 'number' || !Number.isInteger(quantity)) return undefined;
  if (quantity < 1 || quantity > MAX_CART_LINE_QUANTITY) return undefined;
  const id = productId.trim().toLowerCase();
  if (!PRODUCT_ID.test(id) || !GUEST_ID_PATTERN.test(guestId)) return undefined;
  const sizeText = option(size);
  const colorText = option(color);
  if (sizeText === null || colorText === null) return undefined;
  return {
    owner: { kind: 'guest', id: guestId },
    line: {
      productId: id,
      quantity,
      ...(sizeText === undefined ? {} : { size: sizeText }),
      ...(colorText === undefined ? {} : { color: colorText }),
    },
  };
}
